import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { ChosenRecipient } from '../../../app/routes';

interface Props {
  chosen: ChosenRecipient;
  /** The row number of the selected row; null for a row added in the app. */
  rowNumber: number | null | undefined;
  onPut(): void;
  onDismiss(): void;
}

/** A recipient chosen in Search, offered for the selected row. */
export function RecipientOffer({ chosen, rowNumber, onPut, onDismiss }: Props) {
  return (
    <Alert
      severity="info"
      action={
        <Stack direction="row" spacing={1}>
          <Button size="small" onClick={onPut}>
            Put it in row {rowNumber ?? 'new'}
          </Button>
          <Button size="small" variant="text" onClick={onDismiss}>
            Dismiss
          </Button>
        </Stack>
      }
    >
      Recipient {chosen.recipientId} ({chosen.label}) was chosen in Search.
    </Alert>
  );
}
