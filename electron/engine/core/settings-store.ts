import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { ProfileSchema, SettingsSchema, type Profile, type Settings } from '../../contract/schemas/settings.js';

/** What a fresh install shows; the command line and the settings file override them. */
export const DEFAULT_SETTINGS: Settings = { pollIntervalMs: 1000, historySeconds: 3600, notifications: true, theme: 'system' };

const FileSchema = z.object({ settings: SettingsSchema.partial().default({}), profiles: z.array(ProfileSchema).default([]) });

/**
 * Settings and saved connection profiles, in memory and, when a file is given, persisted as JSON (written to a
 * temporary file and renamed, so a crash never leaves half a file). An unreadable file is reported and replaced
 * by defaults rather than stopping the app.
 */
export class SettingsStore {
  private settings: Settings;
  private profiles: Profile[];
  readonly loadError: string | null;

  constructor(
    defaults: Settings,
    private readonly file?: string,
    /** Given on the command line for this run: they win over the file, and are not written back unless changed. */
    overrides: Partial<Settings> = {},
  ) {
    const loaded = file ? load(file) : { data: null, error: null };
    this.settings = SettingsSchema.parse({ ...defaults, ...(loaded.data?.settings ?? {}), ...overrides });
    this.profiles = loaded.data?.profiles ?? [];
    this.loadError = loaded.error;
  }

  get(): Settings {
    return { ...this.settings };
  }

  update(patch: Partial<Settings>): Settings {
    this.settings = SettingsSchema.parse({ ...this.settings, ...patch });
    this.save();
    return this.get();
  }

  listProfiles(): Profile[] {
    return this.profiles.map((p) => ({ ...p }));
  }

  saveProfile(profile: Profile): Profile[] {
    const i = this.profiles.findIndex((p) => p.id === profile.id);
    if (i >= 0) this.profiles[i] = { ...profile };
    else this.profiles.push({ ...profile });
    this.save();
    return this.listProfiles();
  }

  deleteProfile(id: string): Profile[] {
    this.profiles = this.profiles.filter((p) => p.id !== id);
    this.save();
    return this.listProfiles();
  }

  private save(): void {
    if (!this.file) return;
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify({ settings: this.settings, profiles: this.profiles }, null, 2));
    renameSync(tmp, this.file);
  }
}

function load(file: string): { data: z.infer<typeof FileSchema> | null; error: string | null } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { data: null, error: null };
    return { data: null, error: `cannot read ${file}: ${(err as Error).message}` };
  }
  try {
    return { data: FileSchema.parse(JSON.parse(text)), error: null };
  } catch (err) {
    return { data: null, error: `ignoring ${file}: ${(err as Error).message}` };
  }
}
