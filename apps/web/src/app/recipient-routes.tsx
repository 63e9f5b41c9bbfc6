import type { RouteObject } from 'react-router';
import { paths } from '../config/paths.ts';
import type { RouteHandle } from './root-layout.tsx';

const fullScreen: RouteHandle = { fullScreen: true };

const loadGiftMessage = () => import('./routes/gift-message-route.tsx');

/**
 * The recipient journey (features recipient-access, gift-link, scanning, gift-message, reactions), each screen
 * loaded on demand: e-mail code or gift link, instructions, the camera, then the message.
 */
export const recipientRoutes: RouteObject[] = [
  {
    path: paths.scan.pattern,
    lazy: () =>
      import('../features/recipient-access/components/recipient-access-page.tsx').then((m) => ({
        Component: m.RecipientAccessPage,
      })),
  },
  {
    path: paths.giftNotReady.pattern,
    lazy: () =>
      import('../features/recipient-access/components/gift-not-ready-page.tsx').then((m) => ({
        Component: m.GiftNotReadyPage,
      })),
  },
  {
    path: paths.shareLink.pattern,
    lazy: () => import('../features/gift-link/components/share-link-page.tsx').then((m) => ({ Component: m.ShareLinkPage })),
  },
  {
    path: paths.scanningInstructions.pattern,
    lazy: () =>
      import('../features/scanning/components/scanning-instructions-page.tsx').then((m) => ({
        Component: m.ScanningInstructionsPage,
      })),
  },
  {
    path: paths.scanningCamera.pattern,
    handle: fullScreen,
    lazy: () => {
      // Live scanning opens the message page the moment a frame matches: its code loads while the camera starts.
      void loadGiftMessage();
      return import('../features/scanning/components/scanning-camera-page.tsx').then((m) => ({
        Component: m.ScanningCameraPage,
      }));
    },
  },
  {
    path: paths.matchResult.pattern,
    lazy: () => import('../features/scanning/components/match-result-page.tsx').then((m) => ({ Component: m.MatchResultPage })),
  },
  {
    path: paths.giftNotFound.pattern,
    lazy: () =>
      import('../features/scanning/components/gift-not-found-page.tsx').then((m) => ({ Component: m.GiftNotFoundPage })),
  },
  {
    path: paths.backupCode.pattern,
    lazy: () => {
      void loadGiftMessage();
      return import('../features/scanning/components/backup-code-page.tsx').then((m) => ({ Component: m.BackupCodePage }));
    },
  },
  {
    path: paths.giftMessage.pattern,
    lazy: () => loadGiftMessage().then((m) => ({ Component: m.GiftMessageRoute })),
  },
];
