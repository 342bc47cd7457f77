// What the WhatsApp screen mounts: the Prompts IA tab takes the settings and the tester, the chat drawer the control.
export { AssistantTester } from './AssistantTester';
export { AutoReplyControls } from './AutoReplyControls';
export { AutoReplySettings } from './AutoReplySettings';
export { ChatAssistantControl } from './ChatAssistantControl';
export { UsageToday } from './UsageToday';
export { VariableValues } from './VariableValues';
export { autoReplySettings, withoutAutoReplySettings, type AutoReplySettingsValue } from './format';
export { mayEditAssistant } from './api';
