import { AreaPage } from '../../components/AreaPage';

export default function LocationsPage() {
  return <AreaPage title="Locations" description="Locations with their contacts and tags." />;
}
