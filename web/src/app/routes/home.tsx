import { Typography } from '@mui/material';
import { useDocumentTitle } from '../../lib/use-document-title';

export function HomeRoute() {
  useDocumentTitle('Home');
  return (
    <>
      <Typography variant="h1" gutterBottom>
        Medicare guidance for your region
      </Typography>
      <Typography>
        Guidance, news and portal accounts for the staff of doctors&apos; offices and hospitals in jurisdictions J5 (Iowa, Kansas,
        Missouri, Nebraska) and J8 (Indiana, Michigan), Part A and Part B.
      </Typography>
    </>
  );
}
