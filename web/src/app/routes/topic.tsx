import { Typography } from '@mui/material';
import { useParams } from 'react-router';
import { useDocumentTitle } from '../../lib/use-document-title';

export function TopicRoute() {
  const { id = '' } = useParams();
  useDocumentTitle('Topic');
  return (
    <Typography variant="h1" gutterBottom>
      {id}
    </Typography>
  );
}
