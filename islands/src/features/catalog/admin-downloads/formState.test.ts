import { describe, expect, it } from 'vitest';
import { download, file } from './fixtures';
import { canMove, formReducer, initialFormState, isUploading, toDownloadInput } from './formState';
import type { DownloadFormState, FileGroup, FormAction } from './formState';

function run(state: DownloadFormState, ...actions: FormAction[]): DownloadFormState {
  return actions.reduce(formReducer, state);
}

function names(state: DownloadFormState, group: FileGroup): string[] {
  return state.files[group].map((file) => file.name);
}

const editing = () => initialFormState(download(7));

const started: FormAction = {
  type: 'uploadStarted',
  files: [
    { key: 'n1', name: 'Flyer.pdf', ext: 'pdf', size: 2000 },
    { key: 'n2', name: 'Banner.zip', ext: 'zip', size: 5000 },
  ],
};

describe('initialFormState', () => {
  it('is empty for a new package', () => {
    const state = initialFormState(null);
    expect(state).toMatchObject({ name: '', providerId: null, startAt: '', endAt: '', lists: [], dirty: false });
    expect(state.files).toEqual({ new: [], existing: [], removed: [] });
  });

  it('takes a package with its files as existing, its lists and its German days', () => {
    const state = editing();
    expect(state).toMatchObject({ name: 'Aktion 7', providerId: 2, startAt: '2026-06-01', endAt: '2026-06-30' });
    expect(state.lists.map((list) => list.id)).toEqual([21, 22]);
    expect(names(state, 'existing')).toEqual(['Datei 11.pdf', 'Datei 12.pdf']);
    expect(state.files.existing[1]).toMatchObject({ key: 'u12', uploadId: 12, tagsIds: [1], renameDraft: null });
    expect(state.files.new).toEqual([]);
    expect(state.files.removed).toEqual([]);
  });

  it('keeps the thumbnail of a stored file that has one', () => {
    const state = initialFormState(
      download(7, {
        Uploads: [
          file(11, { previewUrl: '/previews/11/thumb.jpg', previewWidth: 320, previewHeight: 452 }),
          file(12),
        ],
      }),
    );
    expect(state.files.existing[0]?.preview).toEqual({ url: '/previews/11/thumb.jpg', width: 320, height: 452 });
    expect(state.files.existing[1]?.preview).toBeNull();
  });
});

describe('fields', () => {
  it('marks the form dirty on every change', () => {
    expect(run(editing(), { type: 'setName', name: 'Neu' }).dirty).toBe(true);
    expect(run(editing(), { type: 'setStartAt', value: '2026-07-01' }).dirty).toBe(true);
    expect(run(editing(), { type: 'setEndAt', value: '2026-07-31' }).dirty).toBe(true);
    expect(run(editing(), { type: 'setLists', lists: [] }).dirty).toBe(true);
  });

  it('clears the chosen lists when the provider changes', () => {
    const chosen = run(initialFormState(null), { type: 'setProvider', providerId: 1 }, {
      type: 'setLists',
      lists: [{ id: 5, name: 'Privatkunden Strom Nord', active: true }],
    });
    expect(chosen.lists).toHaveLength(1);

    const changed = run(chosen, { type: 'setProvider', providerId: 3 });
    expect(changed).toMatchObject({ providerId: 3, lists: [] });
    expect(run(chosen, { type: 'setProvider', providerId: 1 })).toBe(chosen);
  });

  it('loads the package again as saved, clean', () => {
    const changed = run(editing(), { type: 'setName', name: 'Geändert' }, { type: 'remove', key: 'u11' });
    const saved = download(7, { name: 'Gespeichert', Uploads: [] });
    const state = run(changed, { type: 'load', download: saved });
    expect(state).toMatchObject({ name: 'Gespeichert', dirty: false });
    expect(state.files).toEqual({ new: [], existing: [], removed: [] });
  });
});

describe('the three file groups', () => {
  it('marks an existing file for removal and restores it at the end', () => {
    const removed = run(editing(), { type: 'remove', key: 'u11' });
    expect(names(removed, 'existing')).toEqual(['Datei 12.pdf']);
    expect(names(removed, 'removed')).toEqual(['Datei 11.pdf']);
    expect(removed.dirty).toBe(true);

    const restored = run(removed, { type: 'restore', key: 'u11' });
    expect(names(restored, 'existing')).toEqual(['Datei 12.pdf', 'Datei 11.pdf']);
    expect(restored.files.removed).toEqual([]);
  });

  it('takes a new upload out again instead of marking it', () => {
    const state = run(editing(), started, { type: 'remove', key: 'n1' });
    expect(names(state, 'new')).toEqual(['Banner.zip']);
    expect(state.files.removed).toEqual([]);
  });

  it('only restores what is marked for removal', () => {
    const state = editing();
    expect(run(state, { type: 'restore', key: 'u11' })).toBe(state);
  });

  it('orders files within a group by drag and drop', () => {
    const state = run(editing(), { type: 'move', key: 'u11', group: 'existing', index: 1 });
    expect(names(state, 'existing')).toEqual(['Datei 12.pdf', 'Datei 11.pdf']);
    expect(state.dirty).toBe(true);
    const back = run(state, { type: 'move', key: 'u11', group: 'existing', index: 0 });
    expect(names(back, 'existing')).toEqual(['Datei 11.pdf', 'Datei 12.pdf']);
  });

  it('changes nothing when a file is dropped where it was', () => {
    const state = editing();
    expect(run(state, { type: 'move', key: 'u12', group: 'existing', index: 1 })).toBe(state);
    // Dropped on its own group's end while it is the last file.
    expect(run(state, { type: 'move', key: 'u12', group: 'existing', index: 2 })).toBe(state);
  });

  it('drags existing files to "to be removed" and back, to the place they are dropped', () => {
    const removed = run(
      editing(),
      { type: 'move', key: 'u12', group: 'removed', index: 0 },
      { type: 'move', key: 'u11', group: 'removed', index: 0 },
    );
    expect(removed.files.existing).toEqual([]);
    expect(names(removed, 'removed')).toEqual(['Datei 11.pdf', 'Datei 12.pdf']);

    const back = run(removed, { type: 'move', key: 'u12', group: 'existing', index: 0 });
    expect(names(back, 'existing')).toEqual(['Datei 12.pdf']);
    expect(names(back, 'removed')).toEqual(['Datei 11.pdf']);
  });

  it('keeps new uploads out of the package groups and existing files out of the new ones', () => {
    expect(canMove('new', 'removed')).toBe(false);
    expect(canMove('new', 'existing')).toBe(false);
    expect(canMove('existing', 'new')).toBe(false);
    expect(canMove('removed', 'existing')).toBe(true);
    const state = run(editing(), started);
    expect(run(state, { type: 'move', key: 'n1', group: 'removed', index: 0 })).toBe(state);
    expect(run(state, { type: 'move', key: 'u11', group: 'new', index: 0 })).toBe(state);
  });
});

describe('uploads', () => {
  it('adds uploading files with progress and replaces them by the stored uploads', () => {
    const state = run(initialFormState(null), started, { type: 'uploadProgress', key: 'n1', sent: 500 });
    expect(state.files.new[0]).toMatchObject({ key: 'n1', uploadId: null, sent: 500, size: 2000 });
    expect(isUploading(state)).toBe(true);

    const stored = { path: '/files/x', contentType: 'application/pdf' };
    const done = run(
      state,
      { type: 'uploadDone', key: 'n1', uploads: [{ ...stored, id: 40, name: 'Flyer.pdf', ext: 'pdf', size: 2000 }] },
      {
        // An archive is unpacked into its files.
        type: 'uploadDone',
        key: 'n2',
        uploads: [
          { ...stored, id: 41, name: 'Banner 1.png', ext: 'png', size: 100 },
          { ...stored, id: 42, name: 'Banner 2.png', ext: 'png', size: 200 },
        ],
      },
    );
    expect(done.files.new.map((f) => [f.key, f.uploadId, f.name])).toEqual([
      ['n1', 40, 'Flyer.pdf'],
      ['n2', 41, 'Banner 1.png'],
      ['n2-42', 42, 'Banner 2.png'],
    ]);
    expect(isUploading(done)).toBe(false);
  });

  it('drops a file whose upload failed', () => {
    const state = run(initialFormState(null), started, { type: 'uploadFailed', key: 'n2' });
    expect(names(state, 'new')).toEqual(['Flyer.pdf']);
  });
});

describe('rename mode', () => {
  it('renames a file with a valid name, trimmed', () => {
    const state = run(
      editing(),
      { type: 'startRename', key: 'u11' },
      { type: 'editRename', key: 'u11', draft: '  Flyer Sommer.pdf ' },
    );
    expect(state.files.existing[0]?.renameDraft).toBe('  Flyer Sommer.pdf ');
    expect(state.files.existing[0]?.name).toBe('Datei 11.pdf');

    const renamed = run(state, { type: 'applyRename', key: 'u11' });
    expect(renamed.files.existing[0]).toMatchObject({ name: 'Flyer Sommer.pdf', renameDraft: null });
  });

  it('refuses names shorter than 5 or longer than 255 characters', () => {
    for (const draft of ['a.pd', 'x'.repeat(256)]) {
      const state = run(editing(), { type: 'startRename', key: 'u11' }, { type: 'editRename', key: 'u11', draft });
      expect(run(state, { type: 'applyRename', key: 'u11' })).toBe(state);
    }
  });

  it('cancels without renaming', () => {
    const state = run(
      editing(),
      { type: 'startRename', key: 'u11' },
      { type: 'editRename', key: 'u11', draft: 'Anderer Name.pdf' },
      { type: 'cancelRename', key: 'u11' },
    );
    expect(state.files.existing[0]).toMatchObject({ name: 'Datei 11.pdf', renameDraft: null });
  });

  it('renames neither files still uploading nor files marked for removal', () => {
    const uploading = run(editing(), started);
    expect(run(uploading, { type: 'startRename', key: 'n1' })).toEqual(uploading);
    const removed = run(editing(), { type: 'remove', key: 'u11' });
    expect(run(removed, { type: 'startRename', key: 'u11' })).toBe(removed);
  });

  it('ends the rename when the file is marked for removal', () => {
    const state = run(editing(), { type: 'startRename', key: 'u11' }, { type: 'remove', key: 'u11' });
    expect(state.files.removed[0]?.renameDraft).toBeNull();
  });
});

describe('tags', () => {
  it('toggles a tag of a file', () => {
    const on = run(editing(), { type: 'toggleTag', key: 'u11', tagId: 3 });
    expect(on.files.existing[0]?.tagsIds).toEqual([3]);
    const off = run(on, { type: 'toggleTag', key: 'u12', tagId: 1 });
    expect(off.files.existing[1]?.tagsIds).toEqual([]);
  });
});

describe('toDownloadInput', () => {
  it('creates with the uploaded files in their order', () => {
    const state = run(
      initialFormState(null),
      { type: 'setName', name: '  Herbstaktion 2026 ' },
      { type: 'setProvider', providerId: 2 },
      { type: 'setStartAt', value: '2026-09-01' },
      { type: 'setEndAt', value: '2026-09-30' },
      { type: 'setLists', lists: [{ id: 21, name: 'Glasfaser Privatkunden', active: true }] },
      started,
      { type: 'uploadDone', key: 'n2', uploads: [{ id: 41, name: 'Banner.png', ext: 'png', size: 1, path: '', contentType: '' }] },
      { type: 'uploadDone', key: 'n1', uploads: [{ id: 40, name: 'Flyer.pdf', ext: 'pdf', size: 1, path: '', contentType: '' }] },
      { type: 'toggleTag', key: 'n1', tagId: 1 },
      { type: 'move', key: 'n2', group: 'new', index: 1 },
    );
    expect(toDownloadInput(state, null)).toEqual({
      name: 'Herbstaktion 2026',
      // Berlin days as instants: 1 September 00:00 and 30 September 23:59:59 (summer time).
      startAt: '2026-08-31T22:00:00Z',
      endAt: '2026-09-30T21:59:59Z',
      ProviderId: 2,
      listsIds: [21],
      uploadsToInsert: [
        { id: 40, name: 'Flyer.pdf', tagsIds: [1] },
        { id: 41, name: 'Banner.png', tagsIds: [] },
      ],
    });
  });

  it('edits with the new list set, unchecked lists, file order, removals and inserts', () => {
    const original = download(7);
    const state = run(
      initialFormState(original),
      { type: 'setLists', lists: [{ id: 21, name: 'Glasfaser Privatkunden', active: true }] },
      { type: 'remove', key: 'u11' },
      { type: 'uploadStarted', files: [{ key: 'n1', name: 'Neu.pdf', ext: 'pdf', size: 1 }] },
      { type: 'uploadDone', key: 'n1', uploads: [{ id: 50, name: 'Neu.pdf', ext: 'pdf', size: 1, path: '', contentType: '' }] },
      { type: 'setEndAt', value: '2026-07-15' },
    );
    expect(toDownloadInput(state, original)).toEqual({
      name: 'Aktion 7',
      // The start day is unchanged: its exact instant is kept.
      startAt: '2026-05-31T22:00:00Z',
      endAt: '2026-07-15T21:59:59Z',
      ProviderId: 2,
      listsIds: [21],
      uncheckedListsIds: [22],
      Uploads: [{ id: 12, name: 'Datei 12.pdf', tagsIds: [1] }],
      uploadsToDelete: [11],
      uploadsToInsert: [{ id: 50, name: 'Neu.pdf', tagsIds: [] }],
    });
  });
});
