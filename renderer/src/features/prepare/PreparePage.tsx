import { AreaPage } from '../../components/AreaPage';

export default function PreparePage() {
  return <AreaPage title="Prepare" description="Import a spreadsheet, map its columns and fix every row." />;
}
