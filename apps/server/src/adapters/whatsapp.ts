/** Sends an approved WhatsApp template message (business-initiated messages must use one). */
export interface WhatsAppSender {
  /** `to` in E.164 ("+919876543210"); `params` fill the template body's {{1}}, {{2}}, … in order. */
  send(to: string, params: string[]): Promise<void>;
}

export interface WhatsAppCloudConfig {
  token: string;
  phoneNumberId: string;
  template: string;
  language: string;
  /** https://graph.facebook.com/v21.0 in production; a loopback server in tests. */
  apiBaseUrl: string;
}

/** WhatsApp refused the message for a reason of the request's own (no retry mends it). */
export class WhatsAppRefusedError extends Error {
  override name = 'WhatsAppRefusedError';
}

/**
 * The WhatsApp Cloud API (POST /{phone-number-id}/messages). A 4xx other than 429 is the request's fault (an
 * unknown number, a template not approved) and no retry mends it (WhatsAppRefusedError); 429, 5xx and network
 * errors are retried.
 */
export function createWhatsAppCloud(config: WhatsAppCloudConfig, fetchImpl: typeof fetch = fetch): WhatsAppSender {
  const url = `${config.apiBaseUrl.replace(/\/+$/, '')}/${encodeURIComponent(config.phoneNumberId)}/messages`;
  return {
    async send(to, params) {
      const res = await fetchImpl(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${config.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: to.replace(/^\+/, ''),
          type: 'template',
          template: {
            name: config.template,
            language: { code: config.language },
            components: [{ type: 'body', parameters: params.map((text) => ({ type: 'text', text })) }],
          },
        }),
        signal: AbortSignal.timeout(30_000),
      });
      if (res.ok) return;
      let detail = `HTTP ${res.status}`;
      try {
        const body = (await res.json()) as { error?: { message?: string } };
        if (body.error?.message) detail = `${detail}: ${body.error.message}`;
      } catch {
        // Not JSON: the status is all we know.
      }
      const message = `WhatsApp refused the message (${detail})`;
      if (res.status >= 400 && res.status < 500 && res.status !== 429) throw new WhatsAppRefusedError(message);
      throw new Error(message);
    },
  };
}
