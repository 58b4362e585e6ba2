import { useQuery } from '@tanstack/react-query';
import type { SystemStatus } from '@switchboard/contracts';
import { useCallback, useMemo } from 'react';
import { api } from './api-client.ts';
import { formatQuotaAmount, quotaDisplayOf, type QuotaDisplay } from './quota-display.ts';

/**
 * `GET /api/status` drives the system name, logo, footer, menu switches and login methods. The last
 * answer is kept in localStorage so a reload paints the right name and menu before the call returns.
 */
const storageKey = 'status';
export const statusQueryKey = ['status'] as const;

export const defaultSystemName = 'Switchboard';
export const defaultLogo = '/logo.svg';

export function readCachedStatus(): SystemStatus | undefined {
  const raw = localStorage.getItem(storageKey);
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(raw) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as SystemStatus) : undefined;
  } catch {
    return undefined;
  }
}

async function fetchStatus(): Promise<SystemStatus> {
  const status = await api.get<SystemStatus>('/api/status');
  localStorage.setItem(storageKey, JSON.stringify(status));
  return status;
}

/** The status, from the cache first; `isError` with no data means the server could not be reached. */
export function useSystemStatus() {
  const cached = readCachedStatus();
  return useQuery({
    queryKey: statusQueryKey,
    queryFn: fetchStatus,
    staleTime: 60_000,
    ...(cached ? { placeholderData: cached } : {}),
  });
}

/** The status fields most screens need, with safe defaults before anything has loaded. */
export function useStatusValue(): SystemStatus | undefined {
  return useSystemStatus().data;
}

export function systemNameOf(status: SystemStatus | undefined): string {
  return status?.system_name || defaultSystemName;
}

export function logoOf(status: SystemStatus | undefined): string {
  return status?.logo || defaultLogo;
}

/** The site's quota display (new-api's quota display type and rates). */
export function useQuotaDisplay(): QuotaDisplay {
  const status = useStatusValue();
  const display = quotaDisplayOf(status);
  // One object per distinct display, so memoised columns and charts do not rebuild on every render.
  const { type, quotaPerUnit, symbol, rate } = display;
  return useMemo(() => ({ type, quotaPerUnit, symbol, rate }), [type, quotaPerUnit, symbol, rate]);
}

/** Formats quota in the site's display, with as many decimals as a non-zero amount needs (see lib/quota-display.ts). */
export function useQuotaFormatter(): (quota: number) => string {
  const display = useQuotaDisplay();
  return useCallback((quota: number) => formatQuotaAmount(quota, display), [display]);
}
