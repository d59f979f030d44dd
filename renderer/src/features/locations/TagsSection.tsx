import { useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { Location, Tag } from '../../../../shared/contract/locationChannels';
import { desk } from '../../app/deskClient';
import { AssignmentSection } from './assignments/AssignmentSection';
import { ItemEditor } from './assignments/ItemEditor';
import { isComplete } from './assignments/drafts';
import { unassignedTags, withSavedTag } from './assignments/assigned';
import type { Act } from './useLocationActs';

interface Props {
  location: Location;
  tags: Tag[];
  busy: boolean;
  act: Act;
  onLocation(l: Location): void;
}

type TagField = 'name' | 'value';

const EDIT_FIELDS = [
  ['name', 'Tag name'],
  ['value', 'Tag value'],
] as const;

const NEW_FIELDS = [
  ['name', 'New tag name'],
  ['value', 'New tag value'],
] as const;

/** The location's tags: edit (for every location with it) or remove; add a known one or a new one. */
export function TagsSection({ location, tags, busy, act, onLocation }: Props) {
  const assigned = location.tags ?? [];
  const [editing, setEditing] = useState<{ tagId: string; values: Record<TagField, string> } | null>(null);

  async function createAndAssign(draft: Record<TagField, string>, clear: () => void) {
    let created: Tag | null = null;
    const ok = await act(desk['tags.create'](draft), 'The tag was created.', (t) => (created = t));
    const tag = created as Tag | null;
    if (!ok || !tag) return;
    clear();
    await act(
      desk['tags.assign']({ locationId: location.id, tagId: tag.id }),
      `Tag ${tag.name}=${tag.value} was added.`,
      onLocation,
    );
  }

  function saveEdit(tagId: string, values: Record<TagField, string>) {
    void act(
      desk['tags.update']({ tagId, name: values.name, value: values.value }),
      'The tag was saved (every location with it shows the change).',
      (saved) => {
        setEditing(null);
        onLocation(withSavedTag(location, saved));
      },
    );
  }

  const list = (
    <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {assigned.map((t) => (
        <Stack
          component="li"
          key={t._id}
          direction="row"
          spacing={1}
          sx={{ alignItems: 'center' }}
          data-testid="tag-row"
        >
          {editing?.tagId === t._id ? (
            <ItemEditor
              fields={EDIT_FIELDS}
              values={editing.values}
              onChange={(values) => setEditing({ ...editing, values })}
              saveText="Save tag"
              size="small"
              canSave={!busy && isComplete(editing.values)}
              onSave={() => saveEdit(editing.tagId, editing.values)}
              onCancel={() => setEditing(null)}
            />
          ) : (
            <>
              <Chip label={`${t.name} = ${t.value}`} variant="outlined" />
              <Button
                size="small"
                aria-label={`Edit tag: ${t.name} = ${t.value}`}
                onClick={() => setEditing({ tagId: t._id, values: { name: t.name, value: t.value } })}
              >
                Edit
              </Button>
              <Button
                size="small"
                color="error"
                disabled={busy}
                aria-label={`Remove tag: ${t.name} = ${t.value}`}
                onClick={() =>
                  void act(
                    desk['tags.remove']({ locationId: location.id, tagId: t._id }),
                    `Tag ${t.name}=${t.value} was removed.`,
                    onLocation,
                  )
                }
              >
                Remove
              </Button>
            </>
          )}
        </Stack>
      ))}
    </Stack>
  );

  return (
    <AssignmentSection
      id="tags"
      title="Tags"
      emptyText="No tags are assigned to this location."
      assigned={assigned.length === 0 ? null : list}
      busy={busy}
      picker={{
        label: 'Known tag',
        minWidth: 220,
        noneText: 'No other known tags',
        options: unassignedTags(location, tags).map((t) => ({
          value: t.id,
          label: `${t.name} = ${t.value}`,
        })),
        buttonText: 'Add tag',
        assign: (tagId, clear) =>
          void act(desk['tags.assign']({ locationId: location.id, tagId }), 'The tag was added.', (l) => {
            clear();
            onLocation(l);
          }),
      }}
      creator={{
        label: 'New tag',
        fields: NEW_FIELDS,
        buttonText: 'Create and add',
        create: createAndAssign,
      }}
    />
  );
}
