import { useEffect, useRef } from 'react';
import { useTheme } from '../../../lib/theme.ts';
import { echarts, type EChartsCoreOption } from '../lib/echarts.ts';

/** An ECharts canvas that follows the console theme and its container's size. */
export function Chart({ option, height = 320, label }: { option: EChartsCoreOption; height?: number; label: string }) {
  const element = useRef<HTMLDivElement>(null);
  const mode = useTheme();
  useEffect(() => {
    if (!element.current) return undefined;
    const chart = echarts.init(element.current, mode === 'dark' ? 'dark' : undefined);
    chart.setOption({ backgroundColor: 'transparent', ...option });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(element.current);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [option, mode]);
  return <div ref={element} role="img" aria-label={label} style={{ width: '100%', height }} />;
}
