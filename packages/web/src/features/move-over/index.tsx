export { MoveOverBanner } from './components/move-over-banner.tsx';
