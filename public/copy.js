/* global document, navigator, window */
// The console's Copy buttons: <button type="button" class="copy-button" data-copy-from="ID"
// hidden>Copy</button> copies the text (or an input's value) of the element with that id. The
// buttons are hidden until this script shows them; without it the values stay selectable.
const SHOWN_FOR_MS = 2000;

const announcer = document.createElement('p');
announcer.className = 'visually-hidden';
announcer.setAttribute('aria-live', 'polite');

const textOf = (element) =>
  typeof element.value === 'string' ? element.value : element.textContent.trim();

function selectContents(element) {
  if (typeof element.select === 'function') return element.select();
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}

function tell(button, label, announcement) {
  button.textContent = label;
  announcer.textContent = announcement;
  window.clearTimeout(button.copyReset);
  button.copyReset = window.setTimeout(() => {
    button.textContent = 'Copy';
    announcer.textContent = '';
  }, SHOWN_FOR_MS);
}

function copyFrom(button, source) {
  // Without clipboard access the value is selected, ready for the usual copy keys.
  const selectInstead = () => {
    selectContents(source);
    tell(button, 'Copy', 'Selected. Press Ctrl+C (⌘C on a Mac) to copy.');
  };
  if (!navigator.clipboard) return selectInstead();
  navigator.clipboard.writeText(textOf(source)).then(() => {
    tell(button, 'Copied', 'Copied');
  }, selectInstead);
}

function start() {
  const buttons = document.querySelectorAll('button.copy-button[data-copy-from]');
  if (!buttons.length) return;
  document.body.append(announcer);
  for (const button of buttons) {
    const source = document.getElementById(button.dataset.copyFrom);
    if (!source) continue;
    button.hidden = false;
    button.addEventListener('click', () => copyFrom(button, source));
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
