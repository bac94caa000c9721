const startedAt = Date.now();

export function healthRoute() {
  return { status: "ok", uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) };
}
