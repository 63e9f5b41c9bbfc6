import { useParams } from 'react-router';
import { ContributePage } from '../../features/group-gift/components/contribute-page.tsx';
import { MessageComposer } from '../../features/message-upload/components/message-composer.tsx';

/** /contribute/{token}: a group gift's contributor page, recording with the message step's own recorder. */
export function ContributeRoute() {
  const { token = '' } = useParams();
  // Keyed by token: the shared link's page gives way to the contributor's own once their code is checked.
  return <ContributePage key={token} token={token} Composer={MessageComposer} />;
}
