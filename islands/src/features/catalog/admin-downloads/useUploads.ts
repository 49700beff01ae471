// Uploads the files the user drops or picks, one request per file, with byte progress
// (lib/downloads uploadFile uses XMLHttpRequest for that). Files the server would refuse are
// refused here first (spec §5: empty, too large, wrong type), before any byte is sent.
import { useCallback, useEffect, useRef } from 'react';
import type { Dispatch } from 'react';
import { uploadFile } from '../../../lib/downloads';
import type { UploadRequirements } from '../../../lib/downloads';
import { toast } from '../../../lib/toast';
import type { FormAction } from './formState';
import { toastUploadFailure } from './toasts';
import { checkFile, extensionOf } from './validation';

export interface Uploads {
  /** Checks and starts uploading the files. */
  add: (files: readonly File[]) => void;
  /** Stops an upload under way (the file's entry is removed by the caller). */
  cancel: (key: string) => void;
}

export function useUploads(requirements: UploadRequirements, dispatch: Dispatch<FormAction>): Uploads {
  const controllers = useRef(new Map<string, AbortController>());
  const counter = useRef(0);

  // Leaving the page stops what is still under way.
  useEffect(() => {
    const running = controllers.current;
    return () => {
      for (const controller of running.values()) controller.abort();
    };
  }, []);

  const add = useCallback(
    (files: readonly File[]) => {
      const accepted: { key: string; file: File }[] = [];
      for (const file of files) {
        const problem = checkFile(file, requirements);
        if (problem) {
          toast.error(problem);
          continue;
        }
        counter.current += 1;
        accepted.push({ key: `n${counter.current}`, file });
      }
      if (accepted.length === 0) return;
      dispatch({
        type: 'uploadStarted',
        files: accepted.map(({ key, file }) => ({ key, name: file.name, ext: extensionOf(file.name) ?? '', size: file.size })),
      });
      for (const { key, file } of accepted) {
        const controller = new AbortController();
        controllers.current.set(key, controller);
        uploadFile(file, (sent) => dispatch({ type: 'uploadProgress', key, sent }), controller.signal)
          .then((answer) => {
            dispatch({ type: 'uploadDone', key, uploads: answer.uploads.length > 0 ? answer.uploads : [answer] });
          })
          .catch((error: unknown) => {
            toastUploadFailure(error);
            dispatch({ type: 'uploadFailed', key });
          })
          .finally(() => controllers.current.delete(key));
      }
    },
    [requirements, dispatch],
  );

  const cancel = useCallback((key: string) => {
    controllers.current.get(key)?.abort();
  }, []);

  return { add, cancel };
}
