// The client's words: a catalog from the server (English text -> translation), and the
// server's translatable messages ({text, fields, words}) formatted in the chosen language.
let messages = {};
export let lang = "en";

export const t = text => messages[text] || text;

export function setCatalog(code, catalog) {
  lang = code;
  messages = catalog;
}

/** Fill a template's {name} fields (Python's str.format, without format specs). */
export function fill(template, fields) {
  return template.replace(/\{(\w+)(![rs])?\}/g, (whole, name, conversion) => {
    if (!(name in fields)) return whole;
    const value = fields[name];
    return conversion === "!r" ? `'${value}'` : String(value);
  });
}

/** A message from the server ({text, fields, words}) in the chosen language. */
export function format(message) {
  if (!message) return "";
  const fields = {...message.fields};
  for (const word of message.words || []) fields[word] = t(fields[word]);
  return fill(t(message.text), fields);
}

/** The user's remembered language, else the browser's preference, else English. */
export function chooseLanguage(languages) {
  const wanted = [localStorage.getItem("azul-lang"), ...(navigator.languages || [])];
  for (const tag of wanted) {
    const code = (tag || "").slice(0, 2).toLowerCase();
    if (code in languages) return code;
  }
  return "en";
}

/** The rules summaries (a little Markdown: headings, bold, lists, paragraphs) as HTML. */
export function markdown(text) {
  const esc = text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  return esc.split(/\n\n+/).map(block => {
    const inline = block.replace(/\*\*(.+?)\*\*/gs, "<b>$1</b>");
    if (inline.startsWith("# ")) return `<h3>${inline.slice(2)}</h3>`;
    if (inline.startsWith("- ")) {
      return `<ul>${inline.split(/\n- /).map(i => `<li>${i.replace(/^- /, "")}</li>`).join("")}</ul>`;
    }
    return `<p>${inline}</p>`;
  }).join("");
}

export const escapeHtml = text => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;")
  .replace(/>/g, "&gt;").replace(/"/g, "&quot;");
