import { Card, Empty } from 'antd';
import { useMemo } from 'react';
import { seriesColour } from '../lib/series-colour.ts';
import { Chart } from './chart.tsx';

/** A pie of shares (calls per model). */
export function PieCard({ title, data }: { title: string; data: Array<{ name: string; value: number }> }) {
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
      legend: { type: 'scroll', bottom: 0 },
      series: [
        {
          type: 'pie',
          radius: ['35%', '65%'],
          center: ['50%', '45%'],
          data: data.map((slice) => ({ ...slice, itemStyle: { color: seriesColour(slice.name) } })),
          label: { formatter: '{d}%' },
        },
      ],
    }),
    [data],
  );
  return <Card title={title}>{data.length === 0 ? <Empty /> : <Chart option={option} label={title} />}</Card>;
}
