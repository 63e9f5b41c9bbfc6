import { useNavigate } from 'react-router';
import { useCountry } from '../../features/country/use-country.ts';
import { MessageStep } from '../../features/message-upload/components/message-step.tsx';
import { SendWizard } from '../../features/sender-wizard/components/send-wizard.tsx';
import { paths } from '../paths.ts';

/** /send: the sender wizard, with the visitor's country and the message step plugged in from their features. */
export function SendRoute() {
  const navigate = useNavigate();
  const country = useCountry();
  return (
    <SendWizard
      countryCode={country.isDetecting ? undefined : country.countryCode}
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
