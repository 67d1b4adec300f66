import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { AppContext, type AppContextValue } from './store/use-app.js';

/**
 * React and every component of the first view: a chunk of its own, which main.tsx evaluates in a task of its own once
 * it has opened the link to the engine.
 */
export function mount(root: HTMLElement, context: AppContextValue): void {
  createRoot(root).render(
    <StrictMode>
      <AppContext.Provider value={context}>
        <App />
      </AppContext.Provider>
    </StrictMode>,
  );
}
