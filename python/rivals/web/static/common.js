// Helpers every page shares: building elements, talking to the server, short messages.
"use strict";

const rivals = {
  // An element with attributes and children (strings become text, never markup).
  el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "class") node.className = value;
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  },

  // A JSON request to this server; rejects with the server's message.
  async request(path, body) {
    const options = body === undefined ? {} : {
      method: "POST",
      headers: {"content-type": "application/json"},
      body: JSON.stringify(body),
    };
    const response = await fetch(path, options);
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      throw new Error(`the server answered ${response.status} without a message`);
    }
    if (!response.ok) throw new Error(data && data.error ? data.error : `error ${response.status}`);
    return data;
  },

  // A short message at the bottom of the page; errors stay until clicked.
  toast(text, kind) {
    let box = document.getElementById("toasts");
    if (!box) {
      box = rivals.el("div", {id: "toasts", role: "status", "aria-live": "polite"});
      document.body.append(box);
    }
    const item = rivals.el("div", {class: `toast ${kind || ""}`}, text);
    item.addEventListener("click", () => item.remove());
    box.append(item);
    if (kind !== "error") setTimeout(() => item.remove(), 6000);
    return item;
  },

  // The page's address fragment as key=value pairs (#seat=TOKEN).
  fragment() {
    return new URLSearchParams(location.hash.slice(1));
  },

  link(path) {
    return `${location.origin}${path}`;
  },

  async copy(text, button) {
    try {
      await navigator.clipboard.writeText(text);
      if (button) {
        const old = button.textContent;
        button.textContent = "copied";
        setTimeout(() => { button.textContent = old; }, 1500);
      }
    } catch (error) {
      window.prompt("Copy this link:", text);
    }
  },

  // A file chosen by the person, as text (bounded: replays are small).
  readFile(file, limit) {
    return new Promise((resolve, reject) => {
      if (file.size > limit) {
        reject(new Error(`${file.name} is larger than ${Math.round(limit / 1048576)} MB`));
        return;
      }
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(new Error(`cannot read ${file.name}`));
      reader.readAsText(file);
    });
  },

  download(name, text) {
    const url = URL.createObjectURL(new Blob([text], {type: "application/json"}));
    const anchor = rivals.el("a", {href: url, download: name});
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  },

  // "key=value key=value" as an object: values read as JSON where they can be (500, 0.5, true,
  // null, [1, 2]), else as strings.
  parseSettings(text) {
    const out = {};
    const pattern = /([A-Za-z_][\w.#]*)\s*=\s*(\[[^\]]*\]|\{[^}]*\}|"[^"]*"|\S+)/g;
    const rest = text.replace(pattern, (whole, key, value) => {
      try {
        out[key] = JSON.parse(value);
      } catch (error) {
        out[key] = value;
      }
      return "";
    });
    if (rest.trim()) throw new Error(`cannot read "${rest.trim()}": write KEY=VALUE, e.g. time_s=0.5`);
    return out;
  },

  settingsText(settings) {
    return Object.entries(settings).map(([key, value]) => `${key}=${JSON.stringify(value)}`).join(" ");
  },
};
