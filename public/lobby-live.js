/* global document, location, fetch, WebSocket, DOMParser, setTimeout */
// Keeps a lobby page up to date without a reload: when the service says the event changed, the
// page is fetched again and its live regions are swapped in, except a region the person is
// typing in. Without script, the page offers a refresh instead.
(() => {
  const root = document.querySelector('[data-live]');
  if (!root) return;
  const edited = new Set();
  document.addEventListener('input', (event) => {
    const region = event.target.closest && event.target.closest('[data-live-region]');
    if (region) edited.add(region.id);
  });
  for (const notice of document.querySelectorAll('.refresh')) notice.hidden = true;

  let refreshing = null;
  let again = false;
  async function refresh() {
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = (async () => {
      const response = await fetch(location.pathname, { credentials: 'same-origin' });
      if (!response.ok) return;
      const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
      for (const region of document.querySelectorAll('[data-live-region]')) {
        const replacement = fresh.getElementById(region.id);
        if (!replacement || edited.has(region.id) || region.contains(document.activeElement))
          continue;
        region.replaceWith(document.importNode(replacement, true));
      }
    })();
    try {
      await refreshing;
    } finally {
      refreshing = null;
      if (again) {
        again = false;
        void refresh();
      }
    }
  }

  let delay = 1000;
  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${scheme}//${location.host}${root.dataset.live}`);
    socket.addEventListener('open', () => {
      // Whatever changed while the connection was down.
      if (delay > 1000) void refresh();
      delay = 1000;
    });
    socket.addEventListener('message', (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message && message.type === 'changed') void refresh();
    });
    socket.addEventListener('close', () => {
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  }
  connect();
})();
