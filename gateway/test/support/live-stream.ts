/** Opens a live stream (SSE); `ended` resolves with all it received once the server has ended it (or cut it). */
export async function openStream(url: string, token: string): Promise<{ ended: Promise<string> }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`stream answered ${res.status}: ${await res.text()}`);
  const decoder = new TextDecoder();
  const ended = (async () => {
    let text = '';
    try {
      for await (const chunk of res.body!) text += decoder.decode(chunk as Uint8Array, { stream: true });
    } catch {
      // Cut rather than ended: the caller checks what arrived.
    }
    return text;
  })();
  return { ended };
}
