// A tag's icon (spec §3 "Tag"): a Bootstrap icon class (`bi bi-…`), an image URL, or an
// uploaded image kept in the tag as a `data:` URL (issue 25). One component for the customer
// page, the download form and the tag screen.
import type { Tag } from '../lib/downloads';

const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/;

/** The icon as a class list, an image address, or nothing usable. */
export function tagIconKind(icon: string): { kind: 'class'; className: string } | { kind: 'image'; src: string } | null {
  const value = icon.trim();
  if (value.includes('bi bi-')) {
    // Only class-name characters: the value comes from the database.
    return { kind: 'class', className: value.replace(/[^\w\s-]/g, '') };
  }
  if (/^(https:\/\/|\/(?!\/))\S+$/i.test(value) || DATA_IMAGE.test(value)) return { kind: 'image', src: value };
  return null;
}

export function TagIcon({ tag, className = '' }: { tag: Pick<Tag, 'icon'>; className?: string }) {
  const icon = tagIconKind(tag.icon);
  if (!icon) return null;
  return icon.kind === 'class' ? (
    <i className={`ap-tag-icon ${icon.className} ${className}`.trim()} aria-hidden="true" />
  ) : (
    <img className={`ap-tag-icon ${className}`.trim()} src={icon.src} alt="" width={16} height={16} />
  );
}
