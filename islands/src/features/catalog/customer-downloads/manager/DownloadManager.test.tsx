import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import JSZip from 'jszip';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, getToasts } from '../../../../lib/toast';
import { installFetch } from '../../../../test/fetchMock';
import { EMPTY_SELECTION, withPackages } from '../selection';
import type { Selection } from '../selection';
import { download, file } from '../testData';
import DownloadManager, { NO_DOWNLOADS_SELECTED, ZIPPED } from './DownloadManager';

vi.mock('../../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

const sommer = download(7, [file(1, 7, 'Flyer.pdf', { size: 5 }), file(2, 7, 'Fehlt.txt', { size: 3 })]);
sommer.Uploads.forEach((f) => (f.downloadName = 'Sommer/Aktion'));

let saved: { href: string; name: string }[] = [];
let blobs: Blob[] = [];

beforeEach(() => {
  saved = [];
  blobs = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.getAttribute('href') ?? '', name: this.download });
  });
  vi.stubGlobal('URL', Object.assign(URL, {
    createObjectURL: (blob: Blob) => {
      blobs.push(blob);
      return 'blob:zip';
    },
    revokeObjectURL: () => {},
  }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  clearToasts();
});

function renderManager(selection: Selection, limitMb = 500) {
  return render(
    <DownloadManager
      selection={selection}
      productName="E2E"
      browserZipLimitMb={limitMb}
      onDeselect={() => {}}
      onClear={() => {}}
      onClose={() => {}}
    />,
  );
}

describe('download manager', () => {
  it('says when nothing is chosen', () => {
    renderManager(EMPTY_SELECTION);
    fireEvent.click(screen.getByTestId('manager-start'));
    expect(screen.getByTestId('manager-notice').textContent).toBe(NO_DOWNLOADS_SELECTED);
  });

  it('fetches each file, zips the rest when one fails, names the failed one and saves the ZIP', async () => {
    installFetch((request) =>
      request.path === '/files/1/Flyer.pdf'
        ? new Response(new Uint8Array([37, 80, 68, 70, 45]), { headers: { 'Content-Length': '5' } })
        : new Response('weg', { status: 404 }),
    );
    renderManager(withPackages(EMPTY_SELECTION, [sommer], true));
    fireEvent.click(screen.getByTestId('manager-start'));
    // Busy: neither closing nor starting again.
    expect(screen.getByTestId<HTMLButtonElement>('manager-start').disabled).toBe(true);
    for (const close of screen.getAllByRole('button', { name: 'Schließen' })) {
      expect((close as HTMLButtonElement).disabled).toBe(true);
    }

    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toMatch(/^\d{4}-\d{2}-\d{2}_E2E Aktionsportal\.zip$/);
    const zip = await JSZip.loadAsync(await blobs[0]!.arrayBuffer());
    expect(Object.keys(zip.files)).toEqual(['Sommer_Aktion/Flyer.pdf']);
    expect(await zip.file('Sommer_Aktion/Flyer.pdf')?.async('string')).toBe('%PDF-');
    await waitFor(() => expect(screen.getByTestId('manager-notice').textContent).toContain('Nicht geladen: Fehlt.txt'));
    expect(getToasts().map((t) => t.message)).toContain(ZIPPED);
    expect(screen.getByTestId<HTMLButtonElement>('manager-start').disabled).toBe(false);
  });

  it('hands large selections to the server ZIP and says so', () => {
    const { requests } = installFetch(() => new Response(''));
    renderManager(withPackages(EMPTY_SELECTION, [sommer], true), 0);
    expect(screen.getByTestId('manager-server-route').textContent).toContain('vom Server erstellt');
    fireEvent.click(screen.getByTestId('manager-start'));
    expect(saved.map((s) => s.href)).toEqual(['/api/downloads/zip?files=7:1,7:2']);
    expect(saved[0]?.name).toMatch(/_E2E Aktionsportal\.zip$/);
    expect(requests).toHaveLength(0);
  });
});
