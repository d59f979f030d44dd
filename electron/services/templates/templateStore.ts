import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { mappingTemplateSchema, type MappingTemplate } from '../../../shared/mapping';
import { writeFileAtomic } from '../storage/atomicFile';

const storedTemplate = z.object({ name: z.string(), savedAt: z.string(), template: mappingTemplateSchema });
export type SavedTemplate = z.infer<typeof storedTemplate>;

/**
 * Saved column mappings (`mapping-templates.json` in the data folder), in the same JSON format the
 * app imports and exports and the CLI reads with --mapping.
 */
export class TemplateStore {
  constructor(private readonly dataDir: string) {}

  private get file(): string {
    return join(this.dataDir, 'mapping-templates.json');
  }

  async list(): Promise<SavedTemplate[]> {
    const text = await readFile(this.file, 'utf8').catch(() => '[]');
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = [];
    }
    // One damaged entry must not hide the others.
    return (Array.isArray(raw) ? raw : []).flatMap((entry) => {
      const parsed = storedTemplate.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    });
  }

  async save(name: string, template: MappingTemplate): Promise<SavedTemplate[]> {
    const others = (await this.list()).filter((t) => t.name !== name);
    const next = [{ name, savedAt: new Date().toISOString(), template }, ...others];
    await writeFileAtomic(this.file, JSON.stringify(next, null, 2));
    return next;
  }

  async remove(name: string): Promise<SavedTemplate[]> {
    const next = (await this.list()).filter((t) => t.name !== name);
    await writeFileAtomic(this.file, JSON.stringify(next, null, 2));
    return next;
  }
}
