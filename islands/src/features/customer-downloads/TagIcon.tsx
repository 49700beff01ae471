// A tag's icon (spec §3 "Tag"): a Bootstrap icon class (`bi bi-…`) or an image URL.
import type { Tag } from '../../lib/downloads';

/** The icon as a class list, an image address, or nothing usable. */
export function tagIconKind(icon: string): { kind: 'class'; className: string } | { kind: 'image'; src: string } | null {
  const value = icon.trim();
  if (value.includes('bi bi-')) {
    // Only class-name characters: the value comes from the database.
    return { kind: 'class', className: value.replace(/[^\w\s-]/g, '') };
  }
  if (/^(https:\/\/|\/(?!\/))\S+$/i.test(value)) return { kind: 'image', src: value };
  return null;
}

export function TagIcon({ tag }: { tag: Tag }) {
  const icon = tagIconKind(tag.icon);
  if (!icon) return null;
  return icon.kind === 'class' ? (
    <i className={`ap-tag-icon ${icon.className}`} aria-hidden="true" />
  ) : (
    <img className="ap-tag-icon" src={icon.src} alt="" width={16} height={16} />
  );
}
