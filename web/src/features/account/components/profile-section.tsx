import { Typography } from '@mui/material';
import type { Account } from '@portal/contracts/account';
import type { UseQueryResult } from '@tanstack/react-query';
import { FactList } from '../../../components/layouts/fact-list';
import { SectionQuery } from '../../../components/layouts/section-query';
import { MaskedPhone } from './masked-phone';

/** Name, username, email and phone (masked by the server). */
export function ProfileSection({ account }: { account: UseQueryResult<Account> }) {
  return (
    <>
      <SectionQuery query={account} loadingLabel="Loading your profile" lines={4}>
        {(data) => (
          <FactList>
            <dt>Name</dt>
            <dd>
              {data.firstName} {data.lastName}
            </dd>
            <dt>Username</dt>
            <dd>{data.username}</dd>
            <dt>Email</dt>
            <dd>{data.email}</dd>
            <dt>Phone</dt>
            <dd>
              {data.phoneMasked ? (
                <MaskedPhone phone={data.phoneMasked} />
              ) : (
                <Typography component="span">Not on file</Typography>
              )}
            </dd>
          </FactList>
        )}
      </SectionQuery>
    </>
  );
}
