import { useQuery } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ShownAsIsError } from '../../../lib/use-api-error-text';
import { renderWithProviders } from '../../../testing/render-app';
import { PageSection } from '../page-section';
import { SectionQuery } from '../section-query';

/** A section listing what `load` answers; `load` is swapped between tries. */
function Fruit({ load }: { load: { current: () => Promise<string[]> } }) {
  const fruit = useQuery({ queryKey: ['fruit'], queryFn: () => load.current(), retry: false });
  return (
    <PageSection id="fruit" title="Fruit">
      <SectionQuery
        query={fruit}
        loadingLabel="Loading the fruit"
        lines={2}
        isEmpty={(items) => items.length === 0}
        empty={<p>No fruit yet.</p>}
      >
        {(items) => (
          <ul aria-label="Fruit">
            {items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        )}
      </SectionQuery>
    </PageSection>
  );
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe('SectionQuery', () => {
  it('shows grey lines while loading, then the data; the empty state when there is nothing', async () => {
    const first = deferred<string[]>();
    const load = { current: () => first.promise };
    const { queryClient } = renderWithProviders(<Fruit load={load} />);

    const section = await screen.findByRole('region', { name: 'Fruit' });
    const skeleton = within(section).getByRole('progressbar', { name: 'Loading the fruit' });
    expect(skeleton).toHaveAttribute('aria-busy', 'true');
    expect(skeleton.children).toHaveLength(2);
    expect(within(section).queryByRole('list')).not.toBeInTheDocument();

    first.resolve(['Apple', 'Pear']);
    const list = await within(section).findByRole('list', { name: 'Fruit' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Apple', 'Pear']);
    expect(within(section).queryByRole('progressbar')).not.toBeInTheDocument();

    load.current = () => Promise.resolve([]);
    await queryClient.invalidateQueries({ queryKey: ['fruit'] });
    expect(await within(section).findByText('No fruit yet.')).toBeInTheDocument();
    expect(within(section).queryByRole('list')).not.toBeInTheDocument();
  });

  it('shows the error with Try again, which loads again', async () => {
    const load = { current: () => Promise.reject<string[]>(new ShownAsIsError('The fruit could not be counted.')) };
    const { user } = renderWithProviders(<Fruit load={load} />);

    const section = await screen.findByRole('region', { name: 'Fruit' });
    expect(await within(section).findByRole('alert')).toHaveTextContent('The fruit could not be counted.');
    expect(within(section).queryByText('No fruit yet.')).not.toBeInTheDocument();

    load.current = () => Promise.resolve(['Plum']);
    await user.click(within(section).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findByRole('listitem')).toHaveTextContent('Plum');
    expect(within(section).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a failed reload replaces the data with the error', async () => {
    const load = { current: () => Promise.resolve(['Fig']) };
    const { queryClient } = renderWithProviders(<Fruit load={load} />);

    const section = await screen.findByRole('region', { name: 'Fruit' });
    expect(await within(section).findByRole('listitem')).toHaveTextContent('Fig');

    load.current = () => Promise.reject(new ShownAsIsError('The fruit could not be counted.'));
    await queryClient.invalidateQueries({ queryKey: ['fruit'] });
    expect(await within(section).findByRole('alert')).toHaveTextContent('The fruit could not be counted.');
    expect(within(section).queryByRole('list')).not.toBeInTheDocument();
  });
});
