import { type ModelSyncResult, NameRule, type modelSyncSchema } from '@switchboard/contracts';
import type { z } from 'zod';
import type { Clock } from '../../../core/platform/clock.ts';
import type { ModelCatalogueRepository, ModelRow, VendorRow } from './model-catalogue.repository.ts';
import { ServedIndex } from './model-catalogue-view.ts';
import { describingRow } from './name-rule.ts';
import { inferVendor, isNamedAs, type KnownVendor } from './vendor-inference.ts';

type SyncRequest = z.infer<typeof modelSyncSchema>;

export interface SyncConflict {
  model_name: string;
  fields: Array<{ field: string; local: string; upstream: string }>;
}

/** new-api's sync answers name where its data came from; ours comes from the channels, not a URL. */
const source = (locale: string) => ({ locale, models_url: '', vendors_url: '' });

/**
 * new-api's "sync from upstream" (controller/model_sync.go) without the internet: the models the
 * channels serve that no catalogue row describes are created, each with the vendor its name
 * suggests (vendor-inference.ts), creating that vendor when it is missing. Rows that exist are never
 * changed, except the vendor of those an `overwrite` names and whose `sync_official` is not 0.
 */
export class ModelSyncService {
  private readonly repository: ModelCatalogueRepository;
  private readonly clock: Clock;

  constructor(dependencies: { repository: ModelCatalogueRepository; clock: Clock }) {
    this.repository = dependencies.repository;
    this.clock = dependencies.clock;
  }

  /** Served model names no live row describes (exactly or by a rule), sorted. */
  async missing(): Promise<string[]> {
    const rows = await this.repository.allModels();
    return this.missingAmong(rows);
  }

  async preview(locale: string): Promise<{ missing: string[]; conflicts: SyncConflict[]; source: ReturnType<typeof source> }> {
    const rows = await this.repository.allModels();
    const vendors = await this.repository.allVendors();
    const conflicts: SyncConflict[] = [];
    for (const row of rows) {
      if (Number(row.sync_official) === 0 || Number(row.name_rule) !== NameRule.exact) continue;
      const inferred = inferVendor(row.model_name);
      const local = vendors.find((vendor) => Number(vendor.id) === Number(row.vendor_id))?.name ?? '';
      if (inferred && !isNamedAs(inferred, local))
        conflicts.push({ model_name: row.model_name, fields: [{ field: 'vendor', local, upstream: inferred.name }] });
    }
    return { missing: await this.missingAmong(rows), conflicts, source: source(locale) };
  }

  async sync(request: SyncRequest): Promise<ModelSyncResult> {
    const rows = await this.repository.allModels();
    const vendors = new VendorResolver(this.repository, await this.repository.allVendors(), this.clock.unixSeconds());
    const now = this.clock.unixSeconds();
    const createdList: string[] = [];
    const skipped: string[] = [];
    for (const name of await this.missingAmong(rows)) {
      const vendorId = await vendors.idFor(inferVendor(name));
      try {
        await this.repository.insertModel(
          { model_name: name, description: '', icon: '', tags: '', vendor_id: vendorId, endpoints: '', status: 1, sync_official: 1, name_rule: NameRule.exact },
          now,
        );
        createdList.push(name);
      } catch {
        // Another sync (or an administrator) created it a moment ago: theirs stands.
        skipped.push(name);
      }
    }
    const updatedList = await this.overwrite(rows, request?.overwrite ?? [], vendors, now);
    return {
      created_models: createdList.length,
      created_vendors: vendors.created,
      updated_models: updatedList.length,
      skipped_models: skipped,
      created_list: createdList,
      updated_list: updatedList,
      source: source(request?.locale ?? ''),
    };
  }

  private async overwrite(
    rows: ModelRow[],
    requested: Array<{ model_name: string; fields: string[] }>,
    vendors: VendorResolver,
    now: number,
  ): Promise<string[]> {
    const updated: string[] = [];
    for (const item of requested) {
      if (!item.fields.some((field) => field.trim().toLowerCase() === 'vendor')) continue;
      const row = rows.find((candidate) => candidate.model_name === item.model_name && Number(candidate.name_rule) === NameRule.exact);
      const inferred = inferVendor(item.model_name);
      if (!row || Number(row.sync_official) === 0 || !inferred) continue;
      await this.repository.updateModel(Number(row.id), { vendor_id: await vendors.idFor(inferred) }, now);
      updated.push(item.model_name);
    }
    return updated;
  }

  private async missingAmong(rows: readonly ModelRow[]): Promise<string[]> {
    const served = new ServedIndex(await this.repository.servedAbilities());
    return served.modelNames.filter((name) => !describingRow(rows, name));
  }
}

/** Vendor ids by inferred vendor: an existing row under any of its names, else one created once. */
class VendorResolver {
  created = 0;
  private readonly ids = new Map<string, number>();
  private readonly repository: ModelCatalogueRepository;
  private readonly existing: readonly VendorRow[];
  private readonly now: number;

  constructor(repository: ModelCatalogueRepository, existing: readonly VendorRow[], now: number) {
    this.repository = repository;
    this.existing = existing;
    this.now = now;
  }

  async idFor(vendor: KnownVendor | undefined): Promise<number> {
    if (!vendor) return 0;
    const known = this.ids.get(vendor.name);
    if (known !== undefined) return known;
    const found = this.existing.find((row) => isNamedAs(vendor, row.name));
    let id = found ? Number(found.id) : 0;
    if (!found) {
      try {
        id = await this.repository.insertVendor({ name: vendor.name, description: '', icon: vendor.icon, status: 1 }, this.now);
        this.created += 1;
      } catch {
        // Created by someone else meanwhile: leave the model without a vendor rather than fail the sync.
        id = 0;
      }
    }
    this.ids.set(vendor.name, id);
    return id;
  }
}
