// Copies text; falls back to a hidden textarea + execCommand where the async clipboard is unavailable or denied.
export async function copyText(text: string, root: ShadowRoot | Document): Promise<boolean> {
  try {
    if (navigator.clipboard !== undefined) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // denied (no user activation, permissions policy): try the legacy path below
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'ptc-clipboard-scratch';
  const host = root instanceof Document ? root.body : root;
  host.appendChild(area);
  area.select();
  let ok: boolean;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}
