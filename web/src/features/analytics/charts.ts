// The recharts-backed pieces of the screen, one chunk loaded after the page itself.
export { ActivityChart } from './ActivityChart';
export { ChannelChart } from './ChannelChart';
export { GrowthChart } from './GrowthChart';
export { ProductivityChart } from './ProductivityChart';
export { TeamChart } from './TeamChart';
