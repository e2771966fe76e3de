// Finds the control that goes to the next page of a list, by its intent:
// a link marked rel=next, or a link or button named Next, Older, More, ›…
// in the languages pages are written in (Weiter, Mehr laden, Voir plus, 次へ…)
// that is not disabled. Returns {css, role, name} or {} when there is none.
const named = /^(next|next page|next ›|next »|next →|›|»|→|>|older|older posts|more|load more|show more|suivant|page suivante|voir plus|afficher plus|charger plus|weiter|nächste|nächste seite|mehr laden|mehr anzeigen|weitere laden|siguiente|cargar más|ver más|mostra altri|carica altri|volgende|meer laden|もっと見る|さらに表示|次へ|次のページ|加载更多|下一页|더 보기|다음)$/i;
const live = (e) => !e.disabled && e.getAttribute('aria-disabled') !== 'true' && e.getClientRects().length > 0;
const rel = Array.from(document.querySelectorAll('a[rel~="next"][href]')).filter(live);
if (rel.length === 1) return { css: 'a[rel~="next"]' };
const els = Array.from(document.querySelectorAll('a[href], button, [role="button"], [role="link"]')).filter(live);
for (const e of els) {
  const name = norm(e.getAttribute('aria-label') || text(e));
  if (!named.test(name)) continue;
  const role = e.tagName === 'A' || e.getAttribute('role') === 'link' ? 'link' : 'button';
  if (e.hasAttribute('aria-label') && document.querySelectorAll(`[aria-label="${CSS.escape(e.getAttribute('aria-label'))}"]`).length === 1) {
    return { css: `${e.tagName.toLowerCase()}[aria-label="${CSS.escape(e.getAttribute('aria-label'))}"]` };
  }
  return { role, name };
}
return {};
