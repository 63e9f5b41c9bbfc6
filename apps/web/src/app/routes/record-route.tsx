import { useParams } from 'react-router';
import { MessageComposer } from '../../features/message-upload/components/message-composer.tsx';
import { RecordPage } from '../../features/record-link/components/record-page.tsx';

/** /record/{token}: a shop's buyer records their message with the message step's own recorder (decision 058). */
export function RecordRoute() {
  const { token = '' } = useParams();
  return <RecordPage key={token} token={token} Composer={MessageComposer} />;
}
