import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** An area whose screens have not been built yet: says so plainly instead of pretending. */
export function AreaPage({ title, description }: { title: string; description: string }) {
  return (
    <Stack spacing={2}>
      <Typography variant="h1">{title}</Typography>
      <Typography color="textSecondary">{description}</Typography>
      <Alert severity="info">This area is not available in this version yet.</Alert>
    </Stack>
  );
}
