// Tapis's service worker (issue 29): it shows a push the server sent
// (docs/API.md, "By Web Push": {"tag","kind","title","body","url"}) and
// opens its link when the notification is clicked. Served at /sw.js, so
// that its scope is the whole site; it caches nothing.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', e => e.waitUntil(self.clients.claim()));

self.addEventListener('push', e => {
  let d = {};
  try { d = e.data ? e.data.json() : {}; } catch { d = { body: e.data ? e.data.text() : '' }; }
  e.waitUntil(self.registration.showNotification(d.title || 'Tapis', {
    body: d.body || '', tag: d.tag || undefined, icon: '/static/back.svg',
    data: { url: d.url || '/' },
  }));
});

self.addEventListener('notificationclick', e => {
  e.notification.close();
  const url = new URL(e.notification.data?.url || '/', self.location.origin).href;
  e.waitUntil((async () => {
    // A tab of the site already open goes to the link; else a new one.
    const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const c of tabs) {
      if (new URL(c.url).origin === self.location.origin && 'navigate' in c) {
        await c.focus();
        return c.navigate(url);
      }
    }
    return self.clients.openWindow(url);
  })());
});
