interface ImportMetaEnv {
  /** Optional public IP-country services, "url|timeoutMs" separated by commas. Unset: none are called. */
  readonly VITE_COUNTRY_IP_SERVICES?: string;
}
