import type { Page, VendorView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

export interface VendorInput {
  name: string;
  description: string;
  icon: string;
  status: number;
}

/** `GET /api/vendors/` (or `/search`): the first 100 vendors, newest first; more is not a console's job. */
export function listVendors(keyword: string, signal?: AbortSignal): Promise<Page<VendorView>> {
  const paging = { p: 1, page_size: 100 };
  if (keyword === '') return api.get<Page<VendorView>>('/api/vendors/', paging, signal);
  return api.get<Page<VendorView>>('/api/vendors/search', { ...paging, keyword }, signal);
}

/** `GET /api/vendors/:id`. */
export function getVendor(id: number, signal?: AbortSignal): Promise<VendorView> {
  return api.get<VendorView>(`/api/vendors/${id}`, undefined, signal);
}

/** `POST /api/vendors/` (no id) or `PUT /api/vendors/` (with one). */
export function saveVendor(id: number | undefined, input: VendorInput): Promise<VendorView> {
  return id === undefined ? api.post<VendorView>('/api/vendors/', input) : api.put<VendorView>('/api/vendors/', { ...input, id });
}

/** `DELETE /api/vendors/:id`: its models are left without a vendor. */
export function deleteVendor(id: number): Promise<unknown> {
  return api.delete(`/api/vendors/${id}`);
}
