export * from './resources/index';
