import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import type { Passkey, PasskeyRenameRequest } from '@portal/contracts/account';
import { PASSKEY_LIMIT } from '@portal/contracts/field-limits';
import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { ApiForm, ApiFormSummary, useApiForm } from '../../../components/form/api-form';
import { FormField } from '../../../components/form/form-field';
import { useReauth } from '../../../components/reauth/reauth-provider';
import { StatusMessage } from '../../../components/status/status-message';
import { createPasskey, passkeyCeremonyErrorText, passkeysSupported } from '../../../lib/passkey-ceremony';
import { useHydrated } from '../../../lib/use-hydrated';
import {
  accountQueryKeys,
  getPasskeyRegistrationOptions,
  registerPasskey,
  removePasskey,
  renamePasskey,
  usePasskeys,
} from '../api/account-api';
import {
  useFocusSectionHeadingAfterRender,
  formatDate,
  formatDateTime,
} from '../../../components/layouts/page-section';
import { SectionQuery } from '../../../components/layouts/section-query';
import { useReauthMutation } from '../../../components/dialogs/reauth-mutation';
import { ConfirmActionDialog } from '../../../components/dialogs/confirm-action';
import { ScrollTable } from '../../../components/tables/scroll-table';

const NAME_MESSAGE = 'Give the passkey a name of up to 60 characters, e.g. "Work laptop".';
type NameForm = PasskeyRenameRequest;
// The name's schema is loaded and built at the first submit (docs/decisions/0060).
const nameSchema = () => import('@portal/contracts/account').then((m) => m.PasskeyRenameRequest);
const nameMessage = () => NAME_MESSAGE;

/**
 * Passkeys (docs/requirements/session.md#mfa): what they are, the list (name, created, last used), add (the
 * browser's WebAuthn ceremony), rename and remove. Adding and removing may ask for the password again.
 */
export function PasskeysSection() {
  // A deferred value (as the page takes the account): the answer renders the table and the add form in a render that
  // yields to the browser, not in the query's synchronous update (docs/decisions/0060).
  const passkeys = useDeferredValue(usePasskeys());
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<string>();
  const [renaming, setRenaming] = useState<Passkey>();
  const [removing, setRemoving] = useState<Passkey>();
  // The server cannot know the browser: it (and hydration) renders as if supported, with nothing to add until the
  // passkeys have loaded in the browser anyway.
  const hydrated = useHydrated();
  const supported = !hydrated || passkeysSupported();
  const focusHeadingAfterRender = useFocusSectionHeadingAfterRender('passkeys');

  const changed = async (message: string) => {
    setStatus(message);
    await queryClient.invalidateQueries({ queryKey: accountQueryKeys.passkeys });
    // The account's summary counts passkeys too, and the other sessions have ended.
    await queryClient.invalidateQueries({ queryKey: accountQueryKeys.account, exact: true });
    await queryClient.invalidateQueries({ queryKey: accountQueryKeys.sessions });
  };

  return (
    <>
      <Typography sx={{ mb: 1 }}>
        A passkey lets you confirm it&apos;s you with your device&apos;s fingerprint, face or screen lock instead of
        typing a code from your authenticator app. You still enter your password first. A passkey works only on this
        website, so it cannot be stolen by a look-alike site, and you can have several (for example one per device).
        Adding or removing a passkey logs you out everywhere else, and we email you a notice.
      </Typography>
      <StatusMessage message={status} testId="passkeys-status" />
      <SectionQuery
        query={passkeys}
        loadingLabel="Loading your passkeys"
        lines={2}
        isEmpty={(data) => data.passkeys.length === 0}
        empty={<Typography sx={{ my: 2 }}>You have no passkeys yet.</Typography>}
      >
        {(data) => (
          <ScrollTable label="Your passkeys" columns={['Name', 'Created', 'Last used', 'Actions']}>
            <TableBody>
              {data.passkeys.map((passkey) => (
                <TableRow key={passkey.id}>
                  <TableCell component="th" scope="row" data-label="Name" sx={{ overflowWrap: 'anywhere' }}>
                    {passkey.name}
                  </TableCell>
                  <TableCell data-label="Created" sx={{ whiteSpace: 'nowrap' }}>
                    {formatDate(passkey.createdAt)}
                  </TableCell>
                  <TableCell data-label="Last used" sx={{ whiteSpace: 'nowrap' }}>
                    {passkey.lastUsedAt ? formatDateTime(passkey.lastUsedAt) : 'Never'}
                  </TableCell>
                  <TableCell>
                    <Stack direction="row" spacing={1}>
                      <Button size="small" onClick={() => setRenaming(passkey)} aria-label={`Rename ${passkey.name}`}>
                        Rename
                      </Button>
                      <Button
                        size="small"
                        color="error"
                        onClick={() => setRemoving(passkey)}
                        aria-label={`Remove ${passkey.name}`}
                      >
                        Remove
                      </Button>
                    </Stack>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </ScrollTable>
        )}
      </SectionQuery>
      {supported ? (
        passkeys.isSuccess &&
        (passkeys.data.passkeys.length >= PASSKEY_LIMIT ? (
          <Typography sx={{ mt: 2 }}>
            You have {PASSKEY_LIMIT} passkeys, the most an account can have. Remove one to add another.
          </Typography>
        ) : (
          <AddPasskeyForm onAdded={(name) => void changed(`Passkey "${name}" added.`)} />
        ))
      ) : (
        <Alert severity="info" sx={{ mt: 2 }}>
          This browser cannot create passkeys. Use a current version of Chrome, Edge, Firefox or Safari to add one.
        </Alert>
      )}
      {renaming && (
        <RenamePasskeyDialog
          passkey={renaming}
          onClose={() => setRenaming(undefined)}
          onRenamed={(name) => {
            setRenaming(undefined);
            void changed(`Passkey renamed to "${name}".`);
          }}
        />
      )}
      {removing && (
        <RemovePasskeyDialog
          passkey={removing}
          onClose={() => setRemoving(undefined)}
          onRemoved={() => {
            // Its row, with the Remove button the dialog would hand focus back to, goes with it.
            focusHeadingAfterRender();
            setRemoving(undefined);
            void changed(`Passkey "${removing.name}" removed.`);
          }}
        />
      )}
    </>
  );
}

function AddPasskeyForm({ onAdded }: { onAdded: (name: string) => void }) {
  const { withReauth } = useReauth();
  const [ceremonyError, setCeremonyError] = useState<string>();
  const fieldIds = { name: 'passkey-name' };
  const form = useApiForm<NameForm>({
    schema: nameSchema,
    schemaMessage: nameMessage,
    defaultValues: { name: '' },
    fieldIds,
    submit: async ({ name }) => {
      setCeremonyError(undefined);
      try {
        const options = await withReauth(getPasskeyRegistrationOptions);
        const credential = await createPasskey(options);
        await withReauth(() => registerPasskey({ name, credential }));
      } catch (err) {
        // Cancelled or refused in the browser: say so here; a server error goes to the summary.
        const text = passkeyCeremonyErrorText(err);
        if (!text) throw err;
        setCeremonyError(text);
        return;
      }
      form.form.reset();
      onAdded(name);
    },
    clearOnError: 'name',
  });

  return (
    <ApiForm
      form={form}
      labelledBy="add-passkey-title"
      sx={{ mt: 3 }}
      heading={
        <Typography component="h3" variant="h6" id="add-passkey-title">
          Add a passkey
        </Typography>
      }
    >
      {ceremonyError && (
        <Alert severity="error" role="alert" sx={{ my: 1 }}>
          {ceremonyError}
        </Alert>
      )}
      <FormField
        id={fieldIds.name}
        name="name"
        label="Passkey name"
        helperText='For example "Work laptop" or "Phone".'
        required
        sx={{ maxWidth: 420 }}
      />
      <Box>
        <Button type="submit" variant="contained" disabled={form.submitting} sx={{ mt: 1 }}>
          Add a passkey
        </Button>
      </Box>
    </ApiForm>
  );
}

function RenamePasskeyDialog({
  passkey,
  onClose,
  onRenamed,
}: {
  passkey: Passkey;
  onClose: () => void;
  onRenamed: (name: string) => void;
}) {
  const fieldIds = { name: 'passkey-new-name' };
  const form = useApiForm<NameForm>({
    schema: nameSchema,
    schemaMessage: nameMessage,
    defaultValues: { name: passkey.name },
    fieldIds,
    submit: async ({ name }) => {
      const renamed = await renamePasskey(passkey.id, name);
      onRenamed(renamed.passkey.name);
    },
    clearOnError: 'name',
  });
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby="rename-passkey-title"
      // Once the dialog is in, the name is selected for replacing, unless the user has already started editing it:
      // text typed before the transition ended would be selected and overwritten by the next key.
      slotProps={{
        transition: {
          onEntered: () => {
            if (form.form.getValues('name') === passkey.name) form.form.setFocus('name', { shouldSelect: true });
          },
        },
      }}
    >
      <ApiForm form={form} summary={false}>
        <DialogTitle id="rename-passkey-title">Rename passkey</DialogTitle>
        <DialogContent>
          <ApiFormSummary form={form} />
          <FormField id={fieldIds.name} name="name" label="Passkey name" required />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={form.submitting}>
            Save
          </Button>
        </DialogActions>
      </ApiForm>
    </Dialog>
  );
}

function RemovePasskeyDialog({
  passkey,
  onClose,
  onRemoved,
}: {
  passkey: Passkey;
  onClose: () => void;
  onRemoved: () => void;
}) {
  const remove = useReauthMutation({ call: () => removePasskey(passkey.id), onSuccess: onRemoved });
  return (
    <ConfirmActionDialog
      title="Remove this passkey?"
      confirmLabel="Remove"
      action={remove}
      showError
      onConfirm={() => remove.mutate()}
      onCancel={onClose}
    >
      &quot;{passkey.name}&quot; will no longer log you in. You can still use your authenticator app.
    </ConfirmActionDialog>
  );
}
