import { Card, Empty } from 'antd';
import { useMemo } from 'react';
import type { StackedData } from '../lib/aggregate.ts';
import { seriesColour } from '../lib/series-colour.ts';
import { Chart } from './chart.tsx';

/** A stacked bar chart over time (consumption by model or by user). */
export function StackedBarCard({ title, data, format }: { title: string; data: StackedData; format: (value: number) => string }) {
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis', valueFormatter: (value: unknown) => format(Number(value)) },
      legend: { type: 'scroll', top: 0 },
      grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: data.buckets },
      yAxis: { type: 'value', axisLabel: { formatter: (value: number) => format(value) } },
      // A few buckets (one hour) would otherwise stretch each bar over the whole width.
      series: data.series.map((series) => ({
        name: series.name,
        type: 'bar',
        stack: 'total',
        barMaxWidth: 48,
        itemStyle: { color: seriesColour(series.name) },
        emphasis: { focus: 'series' },
        data: series.values,
      })),
    }),
    [data, format],
  );
  return <Card title={title}>{data.series.length === 0 ? <Empty /> : <Chart option={option} label={title} />}</Card>;
}
