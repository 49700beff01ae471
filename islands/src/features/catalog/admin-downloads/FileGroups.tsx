// The files of the download form in their groups, ordered by drag and drop (@dnd-kit, by
// pointer or keyboard): within a group, and existing files to "to be removed" and back.
import {
  closestCenter,
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import type {
  Announcements,
  CollisionDetection,
  DragEndEvent,
  DragOverEvent,
  DragStartEvent,
  UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useState } from 'react';
import type { Dispatch } from 'react';
import type { Tag } from '../../../lib/downloads';
import { canMove, locateFile } from './formState';
import type { FileGroup, FileGroups as Groups, FormAction } from './formState';
import { FileRow } from './FileRow';

const GROUP_LABELS: Record<FileGroup, string> = {
  new: 'Neue Dateien',
  existing: 'Vorhandene Dateien',
  removed: 'Zu entfernende Dateien',
};

const EMPTY_TEXT: Record<FileGroup, string> = {
  new: 'Noch keine neuen Dateien.',
  existing: 'Keine vorhandenen Dateien.',
  removed: 'Dateien hierher ziehen, um sie beim Speichern zu entfernen.',
};

const GROUP_PREFIX = 'group:';

function groupId(group: FileGroup): string {
  return `${GROUP_PREFIX}${group}`;
}

/** Where a drop on `id` (a file, or an empty group) puts the file. */
function dropTarget(files: Groups, id: UniqueIdentifier): { group: FileGroup; index: number } | null {
  const text = String(id);
  if (text.startsWith(GROUP_PREFIX)) {
    const group = text.slice(GROUP_PREFIX.length) as FileGroup;
    return { group, index: files[group].length };
  }
  return locateFile(files, text);
}

// The pointer's file first, else the group it is in; the keyboard (no pointer) takes the closest.
const collisions: CollisionDetection = (args) => {
  const hits = pointerWithin(args);
  if (hits.length === 0) return closestCenter(args);
  const files = hits.filter((hit) => !String(hit.id).startsWith(GROUP_PREFIX));
  return files.length > 0 ? files : hits;
};

const SCREEN_READER_INSTRUCTIONS = {
  draggable:
    'Zum Aufnehmen der Datei die Leertaste oder Eingabetaste drücken. Mit den Pfeiltasten verschieben, ' +
    'auch in eine andere Gruppe. Zum Ablegen erneut die Leertaste oder Eingabetaste drücken, zum Abbrechen Escape.',
};

export interface FileGroupsProps {
  files: Groups;
  /** The groups shown (a new package has only new uploads). */
  groups: readonly FileGroup[];
  tags: Tag[];
  dispatch: Dispatch<FormAction>;
  onDiscard: (key: string) => void;
}

export function FileGroups({ files, groups, tags, dispatch, onDiscard }: FileGroupsProps) {
  const sensors = useSensors(
    // A few pixels of movement before a drag starts, so a click on the handle stays a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    // Instant scrolling: arrow keys pressed while a smooth scroll runs would be lost.
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates, scrollBehavior: 'auto' }),
  );
  const [overGroup, setOverGroup] = useState<FileGroup | null>(null);
  // The file being dragged: a copy of it follows the pointer, also across the groups.
  const [activeKey, setActiveKey] = useState<string | null>(null);

  function nameOf(id: UniqueIdentifier): string {
    const at = locateFile(files, String(id));
    return at ? (files[at.group][at.index]?.name ?? '') : '';
  }

  function place(id: UniqueIdentifier): string {
    const target = dropTarget(files, id);
    if (!target) return '';
    return `Position ${target.index + 1} in „${GROUP_LABELS[target.group]}“`;
  }

  const announcements: Announcements = {
    onDragStart: ({ active }) => `Datei ${nameOf(active.id)} aufgenommen.`,
    onDragOver: ({ active, over }) =>
      over
        ? `Datei ${nameOf(active.id)} ist über ${place(over.id)}.`
        : `Datei ${nameOf(active.id)} ist über keinem Ablagebereich.`,
    onDragEnd: ({ active, over }) =>
      over ? `Datei ${nameOf(active.id)} abgelegt: ${place(over.id)}.` : `Datei ${nameOf(active.id)} abgelegt.`,
    onDragCancel: ({ active }) => `Verschieben abgebrochen. Datei ${nameOf(active.id)} ist wieder an ihrem Platz.`,
  };

  function onDragStart({ active }: DragStartEvent) {
    setActiveKey(String(active.id));
  }

  function onDragOver({ active, over }: DragOverEvent) {
    const from = locateFile(files, String(active.id));
    const target = over ? dropTarget(files, over.id) : null;
    setOverGroup(from && target && canMove(from.group, target.group) ? target.group : null);
  }

  function endDrag() {
    setOverGroup(null);
    setActiveKey(null);
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    endDrag();
    const target = over ? dropTarget(files, over.id) : null;
    if (target) dispatch({ type: 'move', key: String(active.id), group: target.group, index: target.index });
  }

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisions}
      onDragStart={onDragStart}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
      onDragCancel={endDrag}
      accessibility={{ announcements, screenReaderInstructions: SCREEN_READER_INSTRUCTIONS }}
    >
      {groups.map((group) => (
        <Group
          key={group}
          group={group}
          files={files}
          highlighted={overGroup === group}
          tags={tags}
          dispatch={dispatch}
          onDiscard={onDiscard}
        />
      ))}
      <DragOverlay>
        {activeKey !== null && (
          <div className="list-group-item ap-drag-overlay" aria-hidden="true">
            <i className="bi bi-grip-vertical me-2" />
            {nameOf(activeKey)}
          </div>
        )}
      </DragOverlay>
    </DndContext>
  );
}

interface GroupProps {
  group: FileGroup;
  files: Groups;
  highlighted: boolean;
  tags: Tag[];
  dispatch: Dispatch<FormAction>;
  onDiscard: (key: string) => void;
}

function Group({ group, files, highlighted, tags, dispatch, onDiscard }: GroupProps) {
  const items = files[group];
  // The group itself takes drops only while empty: otherwise its files do, and the keyboard,
  // which picks the closest target, would land on the whole group instead of a neighbour.
  const { setNodeRef } = useDroppable({ id: groupId(group), disabled: items.length > 0 });
  const headingId = `file-group-${group}`;
  return (
    <section className="mb-3" aria-labelledby={headingId} data-testid={`file-group-${group}`}>
      <h3 id={headingId} className="h6 mb-2">
        {GROUP_LABELS[group]} <span className="badge text-bg-secondary">{items.length}</span>
      </h3>
      <SortableContext id={group} items={items.map((file) => file.key)} strategy={verticalListSortingStrategy}>
        <ul
          ref={setNodeRef}
          className={`list-group ap-file-group ap-file-group-${group}${highlighted ? ' ap-file-group-over' : ''}`}
        >
          {items.map((file) => (
            <FileRow key={file.key} file={file} group={group} tags={tags} dispatch={dispatch} onDiscard={onDiscard} />
          ))}
          {items.length === 0 && (
            <li className="list-group-item text-body-secondary small ap-file-group-empty">{EMPTY_TEXT[group]}</li>
          )}
        </ul>
      </SortableContext>
    </section>
  );
}
