import { AreaPage } from '../../components/AreaPage';

export default function SearchPage() {
  return <AreaPage title="Search" description="Find giving opportunities and causes." />;
}
