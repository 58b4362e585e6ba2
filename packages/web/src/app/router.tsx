import { createBrowserRouter } from 'react-router';
import { NotFoundPage } from './not-found-page.tsx';
import { HomePage } from './home-page.tsx';

export const router = createBrowserRouter([
  { path: '/', element: <HomePage /> },
  { path: '*', element: <NotFoundPage /> },
]);
