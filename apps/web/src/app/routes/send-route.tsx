import { useNavigate } from 'react-router';
import { MessageStep } from '../../features/message-upload/components/message-step.tsx';
import { SendWizard } from '../../features/sender-wizard/components/send-wizard.tsx';
import { paths } from '../paths.ts';

/** /send: the sender wizard, with the message step plugged in from the message-upload feature. */
export function SendRoute() {
  const navigate = useNavigate();
  return (
    <SendWizard
      renderMessageStep={({ giftId, planId, planName }) => (
        <MessageStep
          giftId={giftId}
          planId={planId}
          planName={planName}
          onContinue={(id) => void navigate(paths.checkout.href(id))}
        />
      )}
    />
  );
}
