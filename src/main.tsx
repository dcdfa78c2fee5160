import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ActorsProvider } from './app/actors';
import { createAppActors } from './app/appActors';
import './styles.css';

const actors = createAppActors();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ActorsProvider actors={actors}>
      <App />
    </ActorsProvider>
  </StrictMode>,
);
