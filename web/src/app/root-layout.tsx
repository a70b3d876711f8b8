import { AppLayout } from '../components/layouts/app-layout';
import { GlobalDialogs } from './dialogs/global-dialogs';
import { LoginHeaderControl } from '../features/auth/login-header-control';
import { LoginHelpMenu } from '../features/login-help/login-help-menu';
import { JurisdictionHeaderControl } from '../features/jurisdiction/jurisdiction-header-control';
import { ThirdPartyScripts } from '../features/third-party/third-party-scripts';

/** The layout every route renders in, with the global dialogs and third-party scripts. */
export function RootLayout() {
  return (
    <>
      <AppLayout
        jurisdictionSlot={<JurisdictionHeaderControl />}
        accountSlot={
          <>
            <LoginHelpMenu />
            <LoginHeaderControl />
          </>
        }
      />
      <GlobalDialogs />
      <ThirdPartyScripts />
    </>
  );
}
