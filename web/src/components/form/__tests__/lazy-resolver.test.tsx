import { zodResolver } from '@hookform/resolvers/zod';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { lazyResolver } from '../lazy-resolver';
import { requestResolver } from '../request-resolver';

type Values = { email: string };
const Schema = z.object({ email: z.string().check(z.minLength(1, 'Enter your email address.')) });

function Form({ resolver, onValid }: { resolver: ReturnType<typeof lazyResolver<Values>>; onValid: () => void }) {
  const form = useForm<Values>({ resolver, defaultValues: { email: '' } });
  const error = form.formState.errors.email?.message;
  return (
    <form onSubmit={form.handleSubmit(onValid)} noValidate>
      <label htmlFor="email">Email address</label>
      <input id="email" {...form.register('email')} />
      {error && <p role="alert">{error}</p>}
      <button type="submit">Send</button>
    </form>
  );
}

describe('a form whose schema loads at its first validation (lazyResolver)', () => {
  it('takes typing before the schema is loaded, then checks the first submit with it', async () => {
    const user = userEvent.setup();
    const load = vi.fn(async () => zodResolver(Schema));
    const onValid = vi.fn();
    render(<Form resolver={lazyResolver(load)} onValid={onValid} />);
    await user.type(screen.getByLabelText('Email address'), 'x');
    await user.clear(screen.getByLabelText('Email address'));
    // Nothing validated yet (react-hook-form's default: on submit), so the schema's code was not asked for.
    expect(load).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter your email address.');
    expect(onValid).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('Email address'), 'jane@example.com');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(onValid).toHaveBeenCalledTimes(1));
    // Loaded and built once, whatever the number of validations.
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a failed download of the schema is tried again at the next submit', async () => {
    const user = userEvent.setup();
    const load = vi
      .fn<() => Promise<ReturnType<typeof zodResolver<Values, unknown, Values>>>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockImplementation(async () => zodResolver<Values, unknown, Values>(Schema));
    const onValid = vi.fn();
    const resolver = lazyResolver(load);
    render(<Form resolver={resolver} onValid={onValid} />);
    await user.type(screen.getByLabelText('Email address'), 'jane@example.com');
    // The first validation rejects with the download's error (the page's submit handler shows its generic error).
    await expect(resolver({ email: 'jane@example.com' }, undefined, {} as never)).rejects.toThrow('Failed to fetch');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(onValid).toHaveBeenCalledTimes(1));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("requestResolver takes a loader of the request's schema and gives the same field errors", async () => {
    const toRequest = (values: Values) => values;
    const direct = requestResolver(Schema, toRequest);
    const loaded = requestResolver(async () => Schema, toRequest);
    const options = { fields: {}, shouldUseNativeValidation: false } as never;
    const [a, b] = await Promise.all([
      direct({ email: '' }, undefined, options),
      loaded({ email: '' }, undefined, options),
    ]);
    expect(b.errors).toEqual(a.errors);
    expect(b.errors).toMatchObject({ email: { message: 'Enter your email address.' } });
  });
});
