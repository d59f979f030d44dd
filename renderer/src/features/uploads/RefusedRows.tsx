import { useEffect, useState } from 'react';
import Typography from '@mui/material/Typography';
import { desk } from '../../app/deskClient';
import { refusedRowsWords } from './intentWords';

/**
 * Which rows of the spreadsheet a rejected file had refused, read from the service's error file (the
 * app keeps it once downloaded), so Uploads names row 24 before anyone opens the repair.
 */
export function RefusedRows({ intentId }: { intentId: string }) {
  const [words, setWords] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void desk['upload.errors']({ intentId }).then((r) => {
      if (live && r.ok && r.value.form === 'donations')
        setWords(refusedRowsWords(r.value.issues.filter((i) => i.rowKey !== null).map((i) => i.row)));
    });
    return () => {
      live = false;
    };
  }, [intentId]);
  if (!words) return null;
  return (
    <Typography variant="body2" data-testid="intent-refused-rows">
      {words}
    </Typography>
  );
}
