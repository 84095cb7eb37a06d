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
  let retryDelay = 1000;
  async function refresh() {
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = (async () => {
      // With its query, as a reload would: it says what the page confirms (`?saved=…`).
      const response = await fetch(location.pathname + location.search, {
        credentials: 'same-origin',
      });
      // A busy or restarting service answers 5xx: the state is fetched again later, since the
      // notice that asked for it will not come twice.
      if (response.status >= 500) throw new Error(`the page answered ${response.status}`);
      if (!response.ok) return;
      const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
      for (const region of document.querySelectorAll('[data-live-region]')) {
        const replacement = fresh.getElementById(region.id);
        if (!replacement || edited.has(region.id) || region.contains(document.activeElement))
          continue;
        region.replaceWith(document.importNode(replacement, true));
      }
    })();
    let failed = false;
    try {
      await refreshing;
      retryDelay = 1000;
    } catch {
      failed = true;
    } finally {
      refreshing = null;
      if (again) {
        again = false;
        void refresh();
      } else if (failed) {
        setTimeout(() => void refresh(), retryDelay);
        retryDelay = Math.min(retryDelay * 2, 30000);
      }
    }
  }

  let delay = 1000;
  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${scheme}//${location.host}${root.dataset.live}`);
    socket.addEventListener('open', () => {
      // The service has been sending this connection every change since before it opened, so
      // one fetch now brings whatever changed since the page was rendered (on the first
      // connection) or while the connection was down or being set up (on every later one).
      void refresh();
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
