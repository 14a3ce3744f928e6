// The two DOM helpers every view uses. Text always goes in as text (textContent), never as
// HTML: what the service sends back, a hand's notation or a message, cannot become markup.

export const $ = (id) => document.getElementById(id);

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
