// api calls Tapis's HTTP API (docs/API.md): JSON in, JSON out. A refusal
// throws an Error carrying the server's stable code, the engine's reason
// and args when a game's rules refused (refusal.js words them), the HTTP
// status and, for a 429, how many seconds to wait. The session cookie goes along by
// itself (same origin): the page never sees it.
export async function api(method, path, body) {
  const r = await fetch(path, {
    method, headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    throw Object.assign(new Error(data.error || r.statusText), {
      code: data.code, reason: data.reason, args: data.args, status: r.status, retry: Number(r.headers.get('Retry-After')) || 0,
    });
  }
  return data;
}
