// The embeddable widget served at /widget.js (issue 20). Kept as a string so the bundled server
// (dist-server) needs no file beside it; the source is plain ES5 so any site's browser runs it.
export const WIDGET_SCRIPT = `(function () {
  'use strict';
  // Forja chat widget: <script src="https://forja.example/widget.js" data-bot="BOT_ID" async></script>
  // Plain script, no framework, no inline code or styles on the host page (styles are set through
  // the DOM, which a strict Content-Security-Policy allows).
  var script = document.currentScript;
  if (!script || window.__forjaWidget) return;
  var botId = script.getAttribute('data-bot');
  if (!botId) {
    console.error('Forja widget: the script tag needs data-bot="<bot id>" (copy the snippet from the bot form).');
    return;
  }
  window.__forjaWidget = true;
  var base = new URL(script.src, location.href).origin;
  var theme = { color: '#228be6', position: 'right', title: 'Chat', scheme: 'auto' };
  var open = false;

  // The conversation token lives in this site's storage: browsers that block third-party storage
  // would forget it inside the iframe, so the chat page hands it over (forja:token) and gets it back here.
  var storageKey = 'forja.chat.' + botId;
  var token = null;
  try { token = window.localStorage.getItem(storageKey); } catch (e) { token = null; }

  var frame = document.createElement('iframe');
  var frameSrc = base + '/chat/' + encodeURIComponent(botId) + '?embed=1&parent=' + encodeURIComponent(location.origin) +
    (token ? '&resume=' + encodeURIComponent(token) : '');
  frame.title = theme.title;
  frame.setAttribute('allow', 'clipboard-write');
  frame.setAttribute('data-forja-widget', 'frame');
  style(frame, {
    position: 'fixed', bottom: '88px', border: '0', borderRadius: '12px',
    boxShadow: '0 8px 32px rgba(0,0,0,.25)', zIndex: '2147483000', display: 'none',
  });

  var button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('data-forja-widget', 'launcher');
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-label', theme.title);
  style(button, {
    position: 'fixed', bottom: '20px', width: '56px', height: '56px', borderRadius: '50%', border: '0',
    cursor: 'pointer', color: '#fff', padding: '0', display: 'block',
    boxShadow: '0 4px 16px rgba(0,0,0,.3)', zIndex: '2147483001',
  });
  // A speech bubble drawn as SVG: no icon font or emoji font needed on the host page.
  var svgNs = 'http://www.w3.org/2000/svg';
  var icon = document.createElementNS(svgNs, 'svg');
  icon.setAttribute('viewBox', '0 0 24 24');
  icon.setAttribute('width', '28');
  icon.setAttribute('height', '28');
  icon.setAttribute('aria-hidden', 'true');
  icon.style.display = 'block';
  icon.style.margin = 'auto';
  var bubble = document.createElementNS(svgNs, 'path');
  bubble.setAttribute('d', 'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z');
  bubble.setAttribute('fill', 'currentColor');
  icon.appendChild(bubble);
  button.appendChild(icon);
  button.addEventListener('click', function () { toggle(!open); });

  function style(element, values) {
    for (var key in values) element.style[key] = values[key];
  }

  function layout() {
    var phone = window.matchMedia('(max-width: 600px)').matches;
    var side = theme.position === 'left' ? 'left' : 'right';
    var other = side === 'left' ? 'right' : 'left';
    button.style[side] = '20px';
    button.style[other] = '';
    button.style.background = theme.color;
    var dark = theme.scheme === 'dark' || (theme.scheme === 'auto' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    frame.style.background = dark ? '#1a1b1e' : '#fff';
    if (phone) {
      style(frame, { top: '0', left: '0', right: '0', bottom: '0', width: '100%', height: '100%', borderRadius: '0' });
      button.style.display = open ? 'none' : 'block';
    } else {
      style(frame, { top: '', bottom: '88px', width: '380px', height: 'min(640px, calc(100vh - 108px))', borderRadius: '12px' });
      frame.style[side] = '20px';
      frame.style[other] = '';
      button.style.display = 'block';
    }
  }

  function toggle(value) {
    open = value;
    frame.style.display = open ? 'block' : 'none';
    button.setAttribute('aria-expanded', String(open));
    layout();
  }

  // Only the chat page of this Forja, in this widget's own frame, may talk to it.
  window.addEventListener('message', function (event) {
    if (event.origin !== base || event.source !== frame.contentWindow) return;
    var data = event.data || {};
    if (data.type === 'forja:ready') {
      if (/^#[0-9a-fA-F]{6}$/.test(data.color || '')) theme.color = data.color;
      if (data.position === 'left' || data.position === 'right') theme.position = data.position;
      if (typeof data.title === 'string' && data.title) theme.title = data.title.slice(0, 80);
      frame.title = theme.title;
      button.setAttribute('aria-label', theme.title);
      button.setAttribute('data-ready', 'true');
      layout();
    } else if (data.type === 'forja:close') {
      toggle(false);
    } else if (data.type === 'forja:token' && typeof data.token === 'string' && data.token.length < 300) {
      try {
        if (data.token) window.localStorage.setItem(storageKey, data.token);
        else window.localStorage.removeItem(storageKey);
      } catch (e) { /* storage blocked: the visitor starts anew next time */ }
    }
  });
  window.addEventListener('resize', layout);

  function mount() {
    layout();
    document.body.appendChild(frame);
    document.body.appendChild(button);
  }
  function apply(bot) {
    if (/^#[0-9a-fA-F]{6}$/.test(bot.widgetColor || '')) theme.color = bot.widgetColor;
    if (bot.widgetPosition === 'left' || bot.widgetPosition === 'right') theme.position = bot.widgetPosition;
    if (bot.widgetTheme === 'light' || bot.widgetTheme === 'dark') theme.scheme = bot.widgetTheme;
    var title = bot.widgetTitle || bot.name;
    if (typeof title === 'string' && title) theme.title = title.slice(0, 80);
    frame.title = theme.title;
    button.setAttribute('aria-label', theme.title);
  }

  // The bot is asked first, from this page: a site not in its allowed origins gets a 403 and no
  // launcher at all (not a frame the browser refuses to show), and the console says why.
  function start() {
    fetch(base + '/api/chat/bot/' + encodeURIComponent(botId), { credentials: 'omit' }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        if (response.ok) {
          apply(body || {});
          frame.src = frameSrc;
          mount();
        } else if (response.status === 403) {
          console.error('Forja widget: this site (' + location.origin + ') is not in the allowed origins of bot ' + botId +
            ', so the chat is not shown. An administrator can add it in the bot form (Allowed origins). ' + (body.message || ''));
        } else {
          console.error('Forja widget: bot ' + botId + ' could not be loaded (HTTP ' + response.status + '): ' + (body.message || 'check data-bot'));
        }
      });
    }, function (error) {
      console.error('Forja widget: could not reach ' + base + ' (network, or the connect-src of this page Content-Security-Policy): ' + error);
    });
  }
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start);
})();
`;
