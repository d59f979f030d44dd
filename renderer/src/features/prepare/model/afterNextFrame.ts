/**
 * Resolves just after the next frame (or after 50 ms when there are no frames, in a hidden window),
 * so work that need not be on screen yet does not delay the frame.
 */
export function afterNextFrame(): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const go = () => {
      if (done) return;
      done = true;
      resolve();
    };
    requestAnimationFrame(() => setTimeout(go, 0));
    setTimeout(go, 50);
  });
}
