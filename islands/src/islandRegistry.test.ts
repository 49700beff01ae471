import { describe, expect, it } from 'vitest';
import { islands } from './islandRegistry';

describe('the island registry', () => {
  it('knows every island by the name the server writes in data-island', () => {
    // The Rust pages use these names: renaming one here breaks that page's island.
    expect(Object.keys(islands).sort()).toEqual([
      'AccountMenu',
      'AdminContacts',
      'AdminDownloads',
      'AdminMenu',
      'AdminStatistics',
      'AdminTags',
      'AutoSubmit',
      'ContactEditor',
      'Countdown',
      'CustomerDownloads',
      'DownloadForm',
      'ProviderCriteria',
    ]);
  });

  it('loads a component for each', async () => {
    for (const [name, load] of Object.entries(islands)) {
      const module = await load();
      expect(typeof module.default, name).toBe('function');
    }
  });
});
