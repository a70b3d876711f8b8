import { Box, Typography } from '@mui/material';
import type { Account } from '@portal/contracts/account';
import type { UseQueryResult } from '@tanstack/react-query';
import { SectionQuery } from '../../../components/layouts/section-query';
import { MaskedPhone } from './masked-phone';

/** Name, username, email and phone (masked by the server). */
export function ProfileSection({ account }: { account: UseQueryResult<Account> }) {
  return (
    <>
      <SectionQuery query={account} loadingLabel="Loading your profile" lines={4}>
        {(data) => (
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
              columnGap: 3,
              rowGap: { xs: 0, sm: 1 },
              m: 0,
              '& dt': { fontWeight: 700 },
              '& dd': { m: 0, mb: { xs: 1, sm: 0 }, overflowWrap: 'anywhere' },
            }}
          >
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
          </Box>
        )}
      </SectionQuery>
    </>
  );
}
