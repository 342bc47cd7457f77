const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** The owner's colour when it is one (it reaches a stylesheet), else the house's blue. */
export function safeColor(color: string): string {
  return HEX_COLOR.test(color) ? color : '#2563eb';
}

/** Dark or white text, whichever reads on `color` (WCAG relative luminance). */
export function textOn(color: string): '#111827' | '#ffffff' {
  const hex = safeColor(color);
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // White's contrast against the colour beats the dark text's below this luminance.
  return luminance > 0.179 ? '#111827' : '#ffffff';
}
